import { marketplacePlatformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['marketplace-sources'],
  title: 'Fuentes de marketplace',
  subtitle: 'Las cuentas de vendedor en cada marketplace',
  newLabel: 'Nueva fuente',
  editLabel: 'Editar fuente',
  emptyMessage: 'Aún no hay fuentes de marketplace',
  noResultsMessage: 'Ninguna fuente coincide con la búsqueda',
  columns: ['name', 'platform', 'country', 'sellerId', 'apiKey'],
  fields: { platform: { options: marketplacePlatformLabels }, sellerId: { label: 'Id de vendedor' }, apiKey: { label: 'API key' } },
});
