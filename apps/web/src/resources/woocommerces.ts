import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.woocommerces,
  title: 'WooCommerce',
  subtitle: 'Tus tiendas WooCommerce y sus claves de la API',
  newLabel: 'Nueva tienda',
  editLabel: 'Editar tienda',
  emptyMessage: 'Aún no hay tiendas WooCommerce conectadas',
  noResultsMessage: 'Ninguna tienda coincide con la búsqueda',
  columns: ['name', 'url', 'country', 'consumerKey'],
  fields: {
    url: { label: 'URL de la tienda' },
    consumerKey: { label: 'Consumer key', placeholder: 'ck_…' },
    consumerSecret: { label: 'Consumer secret', placeholder: 'cs_…' },
  },
});
