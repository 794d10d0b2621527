import { defineResource } from '../define-resource.js';
import { zOptionalText, zRefId, zText } from '../fields.js';

/**
 * mailchimp-tags (SPEC §7, /mailchimp/etiquetas): tags of a Mailchimp audience. Not shown in
 * the spec: a name (unique in the company), the tag's id at Mailchimp and the credential it
 * belongs to (mailchimpId).
 */
export const mailchimpTags = defineResource({
  key: 'mailchimp-tags',
  label: 'Etiqueta de Mailchimp',
  labelPlural: 'Etiquetas de Mailchimp',
  module: 'marketing',
  fields: {
    name: zText(100),
    mailchimpTagId: zOptionalText(40).optional(),
    mailchimpId: zRefId(),
  },
  refs: { mailchimpId: 'mailchimps' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Cliente frecuente', mailchimpTagId: '2034501' },
    { name: 'Mayorista', mailchimpTagId: '2034502' },
    { name: 'Newsletter semanal' },
  ],
});
