import { defineResource } from '../define-resource.js';
import { zDateTime, zEnum, zOptionalText, zText, zUrl } from '../fields.js';

export const commentPlatforms = ['facebook', 'instagram'] as const;

/**
 * comments-without-responses (SPEC §7, /comentarios-sin-respuesta): comments the bot did not
 * answer, for a person to pick up. Not shown in the spec: the platform (Facebook or
 * Instagram), the author's name, the text, the post's URL and when it was received (ISO 8601,
 * UTC). Default sort createdAt desc (when it reached the product); receivedAt sorts too.
 * A Facebook comment no rule answered (decision 0049) carries its comment id at Facebook: it
 * is answered from the list (POST /comments-without-responses/{id}/reply) and then leaves it.
 */
export const commentsWithoutResponses = defineResource({
  key: 'comments-without-responses',
  label: 'Comentario sin respuesta',
  labelPlural: 'Comentarios sin respuesta',
  module: 'chats',
  fields: {
    platform: zEnum(commentPlatforms),
    authorName: zText(120),
    message: zText(8000),
    postUrl: zUrl().optional(),
    receivedAt: zDateTime(),
    commentId: zOptionalText(128).optional(),
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['authorName', 'message'],
  sortable: ['receivedAt'],
  examples: [
    {
      platform: 'facebook',
      authorName: 'Jessica Ccori',
      message: '¿Atienden los domingos?',
      postUrl: 'https://www.facebook.com/104857362819475/posts/712345678901234',
      receivedAt: '2025-03-16T13:20:00Z',
    },
    { platform: 'instagram', authorName: 'Kevin Torres', message: 'Quiero 2 cajas, ¿a cuánto me las deja?', receivedAt: '2025-03-16T14:02:00Z' },
    {
      platform: 'instagram',
      authorName: 'Maribel Condori',
      message: '¿Tienen yape?',
      postUrl: 'https://www.instagram.com/p/C4xYz12AbCd/',
      receivedAt: '2025-03-17T09:45:00Z',
    },
  ],
});
