import { marketplaceListingStatusLabels, marketplaceSyncStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/** /marketplaces/productos-variaciones: each SKU's price and stock; the page edits and sends them (decision 0035). */
export const screen = defineScreen({
  resource: resources['marketplace-variations'],
  title: 'Variaciones de marketplace',
  subtitle: 'El precio y el stock de cada SKU en tus marketplaces: edítalos y envíalos',
  newLabel: 'Nueva variación',
  editLabel: 'Editar variación',
  emptyMessage: 'Aún no hay variaciones de marketplace: sincroniza una fuente en /marketplaces/fuentes',
  noResultsMessage: 'Ninguna variación coincide con la búsqueda',
  columns: ['sellerSku', 'name', 'variation', 'sourceId', 'price', 'salePrice', 'stock', 'syncStatus'],
  displayField: 'sellerSku',
  create: false,
  edit: false,
  delete: false,
  fields: {
    sellerSku: { label: 'SKU' },
    sourceId: { label: 'Fuente' },
    productId: { label: 'Producto' },
    price: { money: { countryField: 'country' } },
    salePrice: { label: 'Oferta', money: { countryField: 'country' } },
    status: { options: marketplaceListingStatusLabels },
    syncStatus: { options: marketplaceSyncStatusLabels },
  },
});
