import { platformLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { AnswerComment } from './answer-comment';

/**
 * /comentarios-sin-respuesta: comments no rule or bot answered, newest first. A Facebook comment
 * is answered from its row, publicly or privately by Messenger (decision 0049); answered, it
 * leaves the list.
 */
export const screen = defineScreen({
  resource: resources['comments-without-responses'],
  title: 'Comentarios sin respuesta',
  subtitle: 'Comentarios de Facebook e Instagram que ninguna regla ni bot respondió: respóndelos en público o por Messenger',
  newLabel: 'Nuevo comentario',
  editLabel: 'Editar comentario',
  emptyMessage: 'No hay comentarios sin respuesta',
  noResultsMessage: 'Ningún comentario coincide con la búsqueda',
  columns: ['authorName', 'message', 'platform', 'receivedAt'],
  form: ['platform', 'authorName', 'message', 'postUrl', 'receivedAt'],
  displayField: 'authorName',
  fields: {
    platform: { options: platformLabels },
    authorName: { label: 'Autor' },
    message: { label: 'Comentario', widget: 'textarea' },
    postUrl: { label: 'URL de la publicación' },
    receivedAt: { label: 'Recibido' },
  },
  rowActions: (row) => createElement(AnswerComment, { row }),
});
