import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zEnum, zOptionalBoolean, zOptionalText, zText } from '../fields.js';

/** What a rule answers: comments on the page's posts (/comment-to-msn) or on an ad's post (/ads-messenger). */
export const commentRuleKinds = ['post', 'ad'] as const;
export type CommentRuleKind = (typeof commentRuleKinds)[number];
export const commentRuleKindLabels: Record<CommentRuleKind, string> = { post: 'Publicación', ad: 'Anuncio' };

/**
 * comment-rules (SPEC §2 /comment-to-msn and /ads-messenger, one screen, and their /{id}
 * detail; issue 15, decision 0049): a company's rules that answer a comment on its Facebook
 * page with a private reply in Messenger. Not shown in the spec, decided: a name; the kind
 * (a post of the page, or an ad — its post, as Facebook delivers an ad's comments on the ad's
 * post); the post id at Facebook (empty: any post of the page; an ad rule names its ad and, to
 * be matched, the ad's post); keywords (empty: any comment; else a comment containing one of
 * them, without caring for case or accents); the reply text; active. A person is answered once
 * per post, whichever rule matched.
 */
export const commentRules = defineResource({
  key: 'comment-rules',
  label: 'Regla de comentarios',
  labelPlural: 'Reglas de comentarios',
  module: 'chats',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    kind: zEnum(commentRuleKinds),
    postId: zOptionalText(128)
      .regex(/^(\d+(_\d+)?)?$/, 'El id de la publicación son dígitos (página_publicación)')
      .optional(),
    adId: zOptionalText(40).regex(/^\d*$/, 'El id del anuncio son dígitos').optional(),
    keywords: z.array(zText(60), { error: formMessages.invalid }).max(50, formMessages.tooLong).optional(),
    replyText: zText(2000),
    active: zOptionalBoolean(),
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'replyText'],
  sortable: ['name'],
  filterable: ['kind'],
  examples: [
    {
      name: 'Precio del pack familiar',
      kind: 'post',
      postId: '104857362819475_712345678901234',
      keywords: ['precio', 'cuánto', 'info'],
      replyText: '¡Hola! El pack familiar está a S/ 49.90 con delivery gratis desde S/ 120. ¿Te lo separo?',
      active: true,
    },
    {
      name: 'Cualquier publicación: envíos',
      kind: 'post',
      keywords: ['envío', 'delivery', 'provincia'],
      replyText: '¡Hola! Hacemos envíos a todo el Perú. Cuéntanos tu distrito y te decimos el costo 🚚',
      active: true,
    },
    {
      name: 'Anuncio 2x1 gaseosas',
      kind: 'ad',
      adId: '23851234567890123',
      postId: '104857362819475_734567890123456',
      replyText: '¡Gracias por escribirnos! El 2x1 en gaseosas de 1.5 L va hasta el domingo. ¿Cuántas quieres?',
      active: false,
    },
  ],
});
