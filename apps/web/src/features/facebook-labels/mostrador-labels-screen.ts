import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['mostrador-labels'],
  title: 'Etiquetas Mostrador',
  subtitle: 'Las etiquetas con que clasificas a tus leads',
  newLabel: 'Nueva etiqueta Mostrador',
  editLabel: 'Editar etiqueta Mostrador',
  emptyMessage: 'Aún no hay etiquetas Mostrador',
  noResultsMessage: 'Ninguna etiqueta Mostrador coincide con la búsqueda',
  columns: ['name', 'color', 'description', 'foreignLabelId'],
  fields: { description: { widget: 'textarea' }, foreignLabelId: { label: 'Etiqueta relacionada' } },
});
