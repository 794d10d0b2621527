import { commentRuleKindLabels, resources } from '@mostrador/contract';
import History from '@mui/icons-material/History';
import { defineScreen } from '../../components/crud/types';

const onAds = () => typeof window !== 'undefined' && window.location.pathname.startsWith('/ads-messenger');

/**
 * /comment-to-msn and /ads-messenger (one screen, SPEC §2; decision 0049): the rules that
 * answer a comment on the page's posts or ads with a private Messenger reply. A rule's own page
 * (/comment-to-msn/{id}) shows it with the replies it sent.
 */
export const screen = defineScreen({
  resource: resources['comment-rules'],
  title: 'Comentarios a Messenger',
  subtitle: 'Reglas que responden en privado por Messenger a quien comenta tus publicaciones y anuncios',
  newLabel: 'Nueva regla',
  editLabel: 'Editar regla',
  emptyMessage: 'Aún no hay reglas. Crea una para responder por Messenger a quien comente una publicación o un anuncio.',
  noResultsMessage: 'Ninguna regla coincide con la búsqueda',
  columns: ['name', 'kind', { field: 'postId', label: 'Publicación', render: (row) => (row.postId ? String(row.postId) : 'Cualquier publicación') }, 'keywords', 'active'],
  form: ['name', 'kind', 'postId', 'adId', 'keywords', 'replyText', 'active'],
  fields: {
    name: { label: 'Nombre' },
    kind: { label: 'Responde a', options: commentRuleKindLabels },
    postId: {
      label: 'Id de la publicación',
      helperText: 'Vacío: cualquier publicación de la página. En un anuncio, el id de su publicación (página_publicación).',
      placeholder: '104857362819475_712345678901234',
    },
    adId: { label: 'Id del anuncio', helperText: 'Solo para reglas de anuncios: el anuncio de Meta Ads al que pertenece la publicación.' },
    keywords: { label: 'Palabras clave', helperText: 'Vacío: responde a cualquier comentario. No importan mayúsculas ni tildes.' },
    replyText: { label: 'Respuesta privada', widget: 'textarea', helperText: 'Llega por Messenger a quien comentó; una vez por persona y publicación.' },
    active: { label: 'Activa' },
  },
  defaults: () => ({ kind: onAds() ? 'ad' : 'post', active: true }),
  detail: { label: 'Ver respuestas', icon: History, path: (row) => `${onAds() ? '/ads-messenger' : '/comment-to-msn'}/${String(row._id)}` },
});
