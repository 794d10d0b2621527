import { z } from 'zod';
import { platforms } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { zEmail, zEnum, zOptionalBoolean, zOptionalText, zText } from '../fields.js';

export const botPlatforms = [...platforms, 'telegram'] as const;
export type BotPlatform = (typeof botPlatforms)[number];

export const botLanguages = ['es', 'en'] as const;
export type BotLanguage = (typeof botLanguages)[number];
export const botLanguageLabels: Record<BotLanguage, string> = { es: 'Español', en: 'Inglés' };

/**
 * bots (SPEC §7; /bots, /facebook, /dialogflow): the Dialogflow agents that answer on a
 * platform. Not shown in the spec: a name (unique in the company), the platform, the
 * Dialogflow project id, the agent's language, an active flag (absent = active) and the
 * Google service account it calls Dialogflow with (client_email and private_key): write-only,
 * responses carry `credentialsSet`.
 */
export const bots = defineResource({
  key: 'bots',
  label: 'Bot',
  labelPlural: 'Bots',
  module: 'integrations',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    platform: zEnum(botPlatforms),
    dialogflowProjectId: zOptionalText(100).optional(),
    language: zEnum(botLanguages),
    active: zOptionalBoolean(),
    credentials: z.object({ client_email: zEmail(), private_key: zText(8000) }).strict().optional(),
  },
  writeOnly: ['credentials'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'dialogflowProjectId'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Asistente WhatsApp', platform: 'whatsapp', dialogflowProjectId: 'bodega-lucho-wa', language: 'es', active: true },
    {
      name: 'Bot Messenger',
      platform: 'facebook',
      dialogflowProjectId: 'bodega-lucho-fb',
      language: 'es',
      active: true,
      credentials: {
        client_email: 'dialogflow@bodega-lucho-fb.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nejemplo-no-es-una-clave-real\n-----END PRIVATE KEY-----\n',
      },
    },
    { name: 'Respuestas Instagram', platform: 'instagram', language: 'es', active: false },
  ],
});
