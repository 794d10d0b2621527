import { marketplaceListingStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/** /marketplaces/productos: what the marketplace accounts sell (read from their sync, decision 0035). */
export const screen = defineScreen({
  resource: resources['marketplace-products'],
  title: 'Productos de marketplace',
  subtitle: 'Los productos de tus cuentas en los marketplaces, con sus variaciones, stock y precio',
  newLabel: 'Nuevo producto',
  editLabel: 'Editar producto',
  emptyMessage: 'Aún no hay productos de marketplace: sincroniza una fuente en /marketplaces/fuentes',
  noResultsMessage: 'Ningún producto coincide con la búsqueda',
  columns: ['name', 'parentSku', 'sourceId', 'variations', 'stock', 'price', 'status'],
  displayField: 'name',
  create: false,
  edit: false,
  delete: false,
  detail: { label: 'Variaciones', path: (row) => `/marketplaces/productos-variaciones?producto=${encodeURIComponent(row._id)}` },
  fields: {
    parentSku: { label: 'SKU' },
    sourceId: { label: 'Fuente' },
    variations: { label: 'Variaciones' },
    price: { label: 'Desde', money: { countryField: 'country' } },
    status: { options: marketplaceListingStatusLabels },
  },
});
