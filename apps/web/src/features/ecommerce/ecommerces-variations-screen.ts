import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/** Variations come from the stores: listed and deleted here, never created or edited (SPEC §2). */
export const screen = defineScreen({
  resource: resources['ecommerces-variations'],
  title: 'Variaciones de productos',
  subtitle: 'Las variaciones (talla, color…) de los productos de tus tiendas',
  newLabel: 'Nueva variación',
  editLabel: 'Editar variación',
  emptyMessage: 'Aún no hay variaciones de productos',
  noResultsMessage: 'Ninguna variación coincide con la búsqueda',
  columns: ['sku', 'ecommerceId', 'attributes', 'price', 'stock'],
  displayField: 'sku',
  create: false,
  edit: false,
  fields: { ecommerceId: { label: 'Producto' }, attributes: { label: 'Atributos' }, price: { money: true } },
});
