import { campaignStatuses } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { zEnum, zInteger, zOptionalText, zRefId, zText } from '../fields.js';

export const campaignChannels = ['whatsapp', 'facebook', 'instagram', 'mailchimp'] as const;

/**
 * marketing-campaigns (SPEC §7 "Marketing campaigns": list, get, update, create, delete; the
 * spec does not show the path, `marketing-campaigns` matches `marketing-segments`). Decided:
 * a campaign has a name, the segment it goes to, the channel, the template (or message) it
 * sends, the chunk size its sending is split into (SPEC §3 chunk payload), an optional
 * scheduled date and the spec's status. Its chunks are sent, programmed and stopped through the
 * sending engine (sending-api.ts, decision 0041), which keeps `status` computed from them.
 * Default sort createdAt desc.
 */
export const marketingCampaigns = defineResource({
  key: 'marketing-campaigns',
  label: 'Campaña',
  labelPlural: 'Campañas',
  module: 'marketing',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    segmentId: zRefId(),
    channel: zEnum(campaignChannels),
    templateName: zText(120),
    message: zOptionalText(1024).optional(),
    chunkSize: zInteger(1).max(1000, 'El tamaño máximo de un bloque es 1000'),
    scheduledAt: zOptionalText(40)
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, 'Debe ser una fecha y hora válida')
      .optional(),
    status: zEnum(campaignStatuses),
  },
  refs: { segmentId: 'marketing-segments' },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'templateName'],
  sortable: ['name', 'status', 'scheduledAt'],
  unique: ['name'],
  examples: [
    { name: 'Campaña Día de la Madre', channel: 'whatsapp', templateName: 'promo_fin_de_mes', chunkSize: 10, scheduledAt: '2026-05-08T10:00:00.000Z', status: 'sent' },
    { name: 'Seguimiento de cotizaciones', channel: 'whatsapp', templateName: 'seguimiento_cotizacion', chunkSize: 8, status: 'pending' },
    { name: 'Cyber Wow noviembre', channel: 'mailchimp', templateName: 'cyber_wow_2026', chunkSize: 500, scheduledAt: '2026-11-25T09:00:00.000Z', status: 'sent_with_some_errors' },
  ],
});
