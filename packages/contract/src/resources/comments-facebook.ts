import { defineResource } from '../define-resource.js';
import { zDateTime, zOptionalBoolean, zOptionalText, zText, zUrl } from '../fields.js';

/**
 * comments-facebook (SPEC §7; /comment-to-msn, /ads-messenger): comments on the page's posts
 * and ads, answered by message. Not shown in the spec: the page, post and comment ids at
 * Facebook (the comment id unique in the company), the author's name, the text, the
 * permalink and whether it was answered. Default sort createdAt desc: newest first.
 * Filled by the page's `feed` webhook (decision 0049): also the author's id at Facebook, the
 * comment it answers (a reply in a thread) and when it was written (a private reply is allowed
 * within 7 days of it).
 */
export const commentsFacebook = defineResource({
  key: 'comments-facebook',
  label: 'Comentario de Facebook',
  labelPlural: 'Comentarios de Facebook',
  module: 'chats',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    pageId: zOptionalText(64).optional(),
    postId: zText(128),
    commentId: zText(128),
    authorName: zText(120),
    message: zText(8000),
    permalinkUrl: zUrl().optional(),
    answered: zOptionalBoolean(),
    authorId: zOptionalText(64).optional(),
    parentCommentId: zOptionalText(128).optional(),
    commentedAt: zDateTime().optional(),
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['authorName', 'message'],
  sortable: ['authorName'],
  unique: ['commentId'],
  examples: [
    {
      pageId: '104857362819475',
      postId: '104857362819475_712345678901234',
      commentId: '712345678901234_998877665544331',
      authorName: 'Jessica Ccori',
      message: '¿Precio de la Inca Kola de 1.5?',
      permalinkUrl: 'https://www.facebook.com/104857362819475/posts/712345678901234',
      answered: true,
    },
    {
      pageId: '104857362819475',
      postId: '104857362819475_712345678901234',
      commentId: '712345678901234_998877665544332',
      authorName: 'Kevin Torres',
      message: 'Info por interno por favor',
      answered: false,
    },
    {
      postId: '104857362819475_723456789012345',
      commentId: '723456789012345_887766554433221',
      authorName: 'Maribel Condori',
      message: '¿Hacen envíos a Arequipa?',
    },
  ],
});
