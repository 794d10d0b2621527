import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['facebook-audiences'],
  title: 'Audiencias de Facebook',
  subtitle: 'Públicos personalizados de Facebook a los que envías leads',
  newLabel: 'Nueva audiencia',
  editLabel: 'Editar audiencia',
  emptyMessage: 'Aún no hay audiencias de Facebook',
  noResultsMessage: 'Ninguna audiencia coincide con la búsqueda',
  columns: ['name', 'facebookAudienceId', 'description'],
  fields: { facebookAudienceId: { label: 'Id en Facebook' }, description: { widget: 'textarea' } },
});
