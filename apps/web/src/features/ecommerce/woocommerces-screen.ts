import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { SyncRunsPanel } from './sync-progress';
import { StoreKeys, StoreLastSync, StoreSummary } from './store-extras';

/**
 * /woocommerce (issue 12, decision 0034): one store per country, its keys sealed (only whether
 * they are saved shows); under each store's name «Probar conexión», saying what is wrong, and
 * «Sincronizar»; above the list the syncs with their live bars, counts and per-item reports.
 */
export const screen = defineScreen({
  resource: resources.woocommerces,
  title: 'WooCommerce',
  subtitle: 'Tus tiendas WooCommerce (una por país), su conexión y sus sincronizaciones',
  newLabel: 'Nueva tienda',
  editLabel: 'Editar tienda',
  emptyMessage: 'Aún no hay tiendas WooCommerce conectadas. Agrega una con «Nueva tienda»: su URL y unas claves de la API REST con permiso de lectura y escritura.',
  noResultsMessage: 'Ninguna tienda coincide con la búsqueda',
  columns: [
    { field: 'name', label: 'Tienda', render: (row) => createElement(StoreSummary, { store: row }) },
    'country',
    { field: 'keys', label: 'Claves y conexión', hideOnMobile: true, render: (row) => createElement(StoreKeys, { store: row }) },
    { field: 'lastSync', label: 'Última sincronización', hideOnMobile: true, render: (row) => createElement(StoreLastSync, { store: row }) },
  ],
  form: ['name', 'country', 'url', 'consumerKey', 'consumerSecret', 'webhookSecret'],
  fields: {
    url: { label: 'URL de la tienda', placeholder: 'https://mitienda.com', helperText: 'La dirección de la tienda, sin /wp-json' },
    country: { helperText: 'Una tienda por país: sus productos se comparan con los de las otras tiendas' },
    consumerKey: { label: 'Consumer key', placeholder: 'ck_…', helperText: 'WooCommerce › Ajustes › Avanzado › API REST, con permiso de lectura/escritura' },
    consumerSecret: { label: 'Consumer secret', placeholder: 'cs_…' },
    webhookSecret: { label: 'Secreto de los webhooks', helperText: 'El «Secreto» de los webhooks de la tienda: sin él, sus avisos se rechazan' },
  },
  panel: () => createElement(SyncRunsPanel),
});
