import { quickReplyVariables, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

const variables = Object.keys(quickReplyVariables)
  .map((v) => `{{${v}}}`)
  .join(', ');

/** /respuestas-rapidas (issue 11, decision 0028): the saved answers agents type with "/" in the chat. */
export const screen = defineScreen({
  resource: resources['respuestas-rapidas'],
  title: 'Respuestas rápidas',
  subtitle: 'Respuestas guardadas que el equipo inserta en el chat escribiendo «/» y su atajo',
  newLabel: 'Nueva respuesta rápida',
  editLabel: 'Editar respuesta rápida',
  emptyMessage: 'Aún no hay respuestas rápidas',
  noResultsMessage: 'Ninguna respuesta rápida coincide con la búsqueda',
  columns: ['atajo', 'texto'],
  fields: {
    atajo: { label: 'Atajo', placeholder: 'envio-gratis', helperText: 'Se escribe en el chat como /envio-gratis: minúsculas, números y guiones' },
    texto: { label: 'Texto', widget: 'textarea', helperText: `Puede llevar ${variables}: se completan con los datos del lead y tu nombre al insertarla` },
  },
});
