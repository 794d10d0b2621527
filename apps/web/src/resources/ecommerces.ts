import { ecommerceProductStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.ecommerces,
  title: 'Productos de e-commerce',
  subtitle: 'Los productos publicados en tus tiendas en línea',
  newLabel: 'Nuevo producto',
  editLabel: 'Editar producto',
  emptyMessage: 'Aún no hay productos de e-commerce',
  noResultsMessage: 'Ningún producto coincide con la búsqueda',
  columns: ['name', 'sku', 'price', 'stock', 'status', 'country'],
  form: ['name', 'sku', 'status', 'country', 'price', 'regularPrice', 'stock', 'woocommerceId', 'categoryIds', 'tagIds', 'sizes', 'attributes', 'imageUrl', 'description'],
  fields: {
    status: { options: ecommerceProductStatusLabels },
    // a store sells in its country's currency
    price: { money: { countryField: 'country' } },
    regularPrice: { label: 'Precio regular', money: { countryField: 'country' } },
    woocommerceId: { label: 'Id en WooCommerce' },
    categoryIds: { label: 'Categorías' },
    tagIds: { label: 'Etiquetas' },
    sizes: { label: 'Tallas' },
    attributes: { label: 'Atributos', fields: { nombre: { label: 'Atributo' }, values: { label: 'Valores' } } },
  },
});
