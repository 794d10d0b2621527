import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['ecommerces-contacts'],
  title: 'Contactos de e-commerce',
  subtitle: 'Los clientes de tus tiendas en línea',
  newLabel: 'Nuevo contacto',
  editLabel: 'Editar contacto',
  emptyMessage: 'Aún no hay contactos de e-commerce',
  noResultsMessage: 'Ningún contacto coincide con la búsqueda',
  columns: ['name', 'email', 'telefono', 'country'],
  fields: { woocommerceId: { label: 'Id en WooCommerce' } },
});
