import { platformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['comments-without-responses'],
  title: 'Comentarios sin respuesta',
  subtitle: 'Comentarios de Facebook e Instagram que el bot no respondió',
  newLabel: 'Nuevo comentario',
  editLabel: 'Editar comentario',
  emptyMessage: 'No hay comentarios sin respuesta',
  noResultsMessage: 'Ningún comentario coincide con la búsqueda',
  columns: ['authorName', 'message', 'platform', 'receivedAt'],
  displayField: 'authorName',
  fields: {
    platform: { options: platformLabels },
    authorName: { label: 'Autor' },
    message: { label: 'Comentario', widget: 'textarea' },
    postUrl: { label: 'URL de la publicación' },
    receivedAt: { label: 'Recibido' },
  },
});
