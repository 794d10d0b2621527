import { marketplacePlatformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/** /marketplaces/fuentes: the marketplace accounts (decision 0035); the page adds the connection test and the sync. */
export const screen = defineScreen({
  resource: resources['marketplace-sources'],
  title: 'Fuentes de marketplace',
  subtitle: 'Las cuentas de vendedor en cada marketplace',
  newLabel: 'Nueva fuente',
  editLabel: 'Editar fuente',
  emptyMessage: 'Aún no hay fuentes de marketplace',
  noResultsMessage: 'Ninguna fuente coincide con la búsqueda',
  columns: ['name', 'platform', 'country', 'apiUser', 'apiKey'],
  form: ['name', 'platform', 'country', 'sellerId', 'apiUser', 'apiKey', 'apiUrl'],
  fields: {
    platform: { options: marketplacePlatformLabels },
    sellerId: { label: 'Id de vendedor' },
    apiUser: { label: 'Usuario de la API (correo)', helperText: 'El correo del usuario de Seller Center dueño de la API key (Mi cuenta → Integraciones)' },
    apiKey: { label: 'API key' },
    apiUrl: { label: 'URL de la API', helperText: 'Déjala vacía para usar la de Falabella o Linio de ese país' },
  },
});
