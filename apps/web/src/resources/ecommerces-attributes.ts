import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['ecommerces-attributes'],
  title: 'Atributos',
  subtitle: 'Los atributos de productos de tus tiendas (talla, color…) y sus valores',
  newLabel: 'Nuevo atributo',
  editLabel: 'Editar atributo',
  emptyMessage: 'Aún no hay atributos',
  noResultsMessage: 'Ningún atributo coincide con la búsqueda',
  columns: ['nombre', 'terms', 'country', 'woocommerceId'],
  form: ['nombre', 'country', 'woocommerceId', 'terms'],
  fields: {
    terms: { label: 'Valores', fields: { _id: { label: 'Id en la tienda' }, name: { label: 'Valor' } } },
    woocommerceId: { label: 'Id en WooCommerce' },
  },
});
