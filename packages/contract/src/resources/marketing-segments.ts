import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zEnum, zId, zOptionalText, zText } from '../fields.js';
import { leadPlatforms, leadStatuses } from './leads.js';

/**
 * marketing-segments (SPEC §7, /marketing/segmentos): a set of clean leads that campaigns and
 * massive label updates target. Not shown in the spec: a name (unique in the company), a
 * description and the filters that define it (all optional, combined with AND): Mostrador
 * label ids, lead statuses and platforms. The label ids are a nested reference
 * (`filters.mostradorLabelIds`): only labels of the caller's company are accepted.
 */
export const marketingSegments = defineResource({
  key: 'marketing-segments',
  label: 'Segmento',
  labelPlural: 'Segmentos',
  module: 'marketing',
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
    filters: z
      .object({
        mostradorLabelIds: z.array(zId()).max(200, formMessages.tooLong).optional(),
        statuses: z.array(zEnum(leadStatuses)).max(leadStatuses.length, formMessages.tooLong).optional(),
        platforms: z.array(zEnum(leadPlatforms)).max(leadPlatforms.length, formMessages.tooLong).optional(),
      })
      .strict()
      .optional(),
  },
  refs: { 'filters.mostradorLabelIds': 'mostrador-labels' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Compradores por WhatsApp', description: 'Ya compraron y escriben por WhatsApp', filters: { statuses: ['compra-realizada'], platforms: ['whatsapp'] } },
    { name: 'Para reconectar', description: 'Leads que dejaron de responder', filters: { statuses: ['re-conectar', 'compra-fallida'] } },
    { name: 'Todos los de Instagram', filters: { platforms: ['instagram'] } },
  ],
});
