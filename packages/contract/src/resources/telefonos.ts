import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { zEmail, zEpochMs, zOptionalText, zPhone, zRefId } from '../fields.js';

/**
 * telefonos (SPEC §3, §7): the business's WhatsApp numbers. Fields from SPEC §3: numero (digits
 * with country code, unique in the company), googleContactEmail (the Google account whose
 * contacts the number syncs, /telefonos/googlepeople), agenteId (the agent who answers it) and
 * credenciales, the Google OAuth tokens: write-only, never returned (responses carry
 * `credencialesSet`). expiry_date is Google's milliseconds since the epoch.
 */
export const telefonos = defineResource({
  key: 'telefonos',
  label: 'Teléfono',
  labelPlural: 'Teléfonos',
  module: 'integrations',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    numero: zPhone(),
    googleContactEmail: zEmail().optional(),
    agenteId: zRefId(),
    credenciales: z
      .object({
        clientId: zOptionalText(300).optional(),
        clientSecret: zOptionalText(300).optional(),
        access_token: zOptionalText(4000).optional(),
        refresh_token: zOptionalText(4000).optional(),
        scope: zOptionalText(2000).optional(),
        token_type: zOptionalText(40).optional(),
        id_token: zOptionalText(4000).optional(),
        expiry_date: zEpochMs().optional(),
      })
      .strict()
      .optional(),
  },
  refs: { agenteId: 'agentes' },
  writeOnly: ['credenciales'],
  defaultSort: { field: 'numero', order: 'asc' },
  searchable: ['numero', 'googleContactEmail'],
  sortable: ['numero'],
  unique: ['numero'],
  examples: [
    { numero: '51987654321', googleContactEmail: 'ventas@bodegalucho.pe' },
    {
      numero: '51912345678',
      googleContactEmail: 'pedidos@bodegalucho.pe',
      credenciales: {
        clientId: '123456789012-ejemplo.apps.googleusercontent.com',
        clientSecret: 'ejemplo-client-secret',
        access_token: 'ya29.ejemplo-access-token',
        refresh_token: '1//ejemplo-refresh-token',
        scope: 'https://www.googleapis.com/auth/contacts',
        token_type: 'Bearer',
        expiry_date: 1767225600000,
      },
    },
    { numero: '51945678123' },
  ],
});
