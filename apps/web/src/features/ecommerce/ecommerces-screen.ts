import { ecommerceProductStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { ProductBulkActions, ProductName, ProductStatusChip, ProductSyncPanel, productPath } from './product-list-extras';

/**
 * /ecommerce/productos (issue 12, decision 0034): a product per country store; a row opens its
 * page (/ecommerce/productos/{id}: edit, variations, the other stores side by side); chosen
 * products are sent to their stores with a live bar, or one's pictures and texts copied to the
 * same SKU in the other stores.
 */
export const screen = defineScreen({
  resource: resources.ecommerces,
  title: 'Productos de e-commerce',
  subtitle: 'Los productos de tus tiendas en línea, uno por tienda de cada país',
  newLabel: 'Nuevo producto',
  editLabel: 'Editar producto',
  emptyMessage: 'Aún no hay productos de e-commerce. Sincroniza una tienda en /woocommerce para traer los suyos.',
  noResultsMessage: 'Ningún producto coincide con la búsqueda',
  columns: [
    { field: 'name', render: (row) => createElement(ProductName, { product: row }) },
    'sku',
    'price',
    'stock',
    { field: 'status', render: (row) => createElement(ProductStatusChip, { status: row.status }) },
    'country',
  ],
  form: ['name', 'sku', 'status', 'country', 'price', 'regularPrice', 'stock', 'woocommerceId', 'categoryIds', 'tagIds', 'sizes', 'attributes', 'imageUrl', 'description'],
  fields: {
    status: { options: ecommerceProductStatusLabels },
    // a store sells in its country's currency
    price: { money: { countryField: 'country' } },
    regularPrice: { label: 'Precio regular', money: { countryField: 'country' }, helperText: 'El precio sin oferta; vacío si no está en oferta' },
    woocommerceId: { label: 'Id en WooCommerce' },
    categoryIds: { label: 'Categorías' },
    tagIds: { label: 'Etiquetas' },
    sizes: { label: 'Tallas' },
    attributes: { label: 'Atributos', fields: { nombre: { label: 'Atributo' }, values: { label: 'Valores' } } },
    imageUrl: { label: 'Imagen (enlace)' },
  },
  editPath: (row) => productPath(row._id),
  selection: { actions: (selected, clear) => createElement(ProductBulkActions, { selected, clear }) },
  panel: () => createElement(ProductSyncPanel),
});
