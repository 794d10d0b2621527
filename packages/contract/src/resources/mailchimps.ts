import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zText } from '../fields.js';

/**
 * mailchimps (SPEC §7, /mailchimp): Mailchimp credentials. Not shown in the spec: a name
 * (unique in the company), the server prefix (us21), the audience (list) id and the API key:
 * required on create, write-only (responses carry `apiKeySet`). A Mailchimp key ends with its
 * server prefix (`…-us21`). A key starting with «sandbox» answers from the built-in sandbox (the
 * demo's; decision 0051): it never reaches Mailchimp.
 */
export const mailchimps = defineResource({
  key: 'mailchimps',
  label: 'Credencial de Mailchimp',
  labelPlural: 'Credenciales de Mailchimp',
  module: 'marketing',
  fields: {
    name: zText(120),
    serverPrefix: z
      .string({ error: requiredOr(formMessages.invalid) })
      .trim()
      .toLowerCase()
      .regex(/^[a-z]+\d+$/, 'Debe ser el prefijo del servidor de Mailchimp, como us21'),
    listId: zText(40),
    apiKey: zText(200).regex(/^[0-9a-zA-Z]+-[a-z]+\d+$/, 'Debe ser una API key de Mailchimp, como 0123abcd…-us21'),
  },
  writeOnly: ['apiKey'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'listId'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Boletín clientes', serverPrefix: 'us21', listId: 'a1b2c3d4e5', apiKey: 'sandbox0clientes-us21' },
    { name: 'Mayoristas', serverPrefix: 'us21', listId: 'f6g7h8i9j0', apiKey: 'sandbox0mayoristas-us21' },
    { name: 'Tienda Chile', serverPrefix: 'US14', listId: 'k1l2m3n4o5', apiKey: 'sandbox0chile-us14' },
  ],
});
