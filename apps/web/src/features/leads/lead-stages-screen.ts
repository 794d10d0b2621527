import { leadStatusLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/** /lead/etapas: the company's own stages of the board (decision 0099), each part of one of the five statuses. */
export const screen = defineScreen({
  resource: resources['lead-stages'],
  title: 'Etapas del tablero',
  subtitle: 'Tus propias etapas en /lead/tablero: cada una es parte de un estado, y sus leads se listan en ese estado',
  newLabel: 'Nueva etapa',
  editLabel: 'Editar etapa',
  emptyMessage: 'Aún no hay etapas propias: el tablero muestra los cinco estados',
  noResultsMessage: 'Ninguna etapa coincide con la búsqueda',
  columns: ['name', 'mapsTo', 'position'],
  fields: {
    name: { label: 'Nombre' },
    mapsTo: { label: 'Es parte de', options: leadStatusLabels, helperText: 'Sus leads tienen este estado y se listan en su pantalla' },
    position: { label: 'Orden', helperText: 'Entre las etapas del mismo estado, de menor a mayor' },
  },
});
