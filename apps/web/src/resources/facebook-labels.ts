import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['facebook-labels'],
  title: 'Etiquetas de Facebook',
  subtitle: 'Las etiquetas de tus conversaciones de Facebook',
  newLabel: 'Nueva etiqueta de Facebook',
  editLabel: 'Editar etiqueta de Facebook',
  emptyMessage: 'Aún no hay etiquetas de Facebook',
  noResultsMessage: 'Ninguna etiqueta de Facebook coincide con la búsqueda',
  columns: ['name', 'facebookLabelId', 'foreignLabelId'],
  fields: { facebookLabelId: { label: 'Id en Facebook' }, foreignLabelId: { label: 'Etiqueta relacionada' } },
});
