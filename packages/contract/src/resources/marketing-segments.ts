import { z } from 'zod';
import { consultationMotives, sentiments } from '../analysis.js';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zAmount, zEnum, zId, zInteger, zOptionalText, zText } from '../fields.js';
import { countryCodes } from '../phone.js';
import { leadPlatforms, leadStatuses } from './leads.js';

/**
 * A segment's contact-frequency filter (decision 0039): the preference a clean lead chose on
 * /dias-frecuencia, read as that page shows it (the nearest option), or none chosen.
 */
export const segmentFrequencies = ['weekly', 'biweekly', 'monthly', 'opt-out', 'none'] as const;
export type SegmentFrequency = (typeof segmentFrequencies)[number];
export const segmentFrequencyLabels: Record<SegmentFrequency, string> = {
  weekly: 'Cada semana',
  biweekly: 'Cada 15 días',
  monthly: 'Una vez al mes',
  'opt-out': 'No quiere mensajes',
  none: 'Sin preferencia',
};

const zDay = () => z.string({ error: 'Escribe una fecha' }).regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'Escribe la fecha como AAAA-MM-DD');

/** The most days a «días desde» filter takes (a hundred years). */
export const SEGMENT_MAX_DAYS = 36_500;
const zDays = () =>
  z
    .int({ error: requiredOr('Escribe un número entero de días') })
    .min(0, 'Los días no pueden ser negativos')
    .max(SEGMENT_MAX_DAYS, `Como máximo ${SEGMENT_MAX_DAYS} días`);

/** The customer filters' ranges (decision 0101): each «mínimo» at most its «máximo», worded in Spanish on the «máximo». */
export const segmentRanges = [
  { min: 'ordersMin', max: 'ordersMax', message: 'El mínimo de pedidos no puede ser mayor que el máximo' },
  { min: 'revenueMin', max: 'revenueMax', message: 'El mínimo de ingresos pagados no puede ser mayor que el máximo' },
  { min: 'daysSinceOrderMin', max: 'daysSinceOrderMax', message: 'El mínimo de días desde el último pedido no puede ser mayor que el máximo' },
  { min: 'daysSinceMessageMin', max: 'daysSinceMessageMax', message: 'El mínimo de días desde el último mensaje no puede ser mayor que el máximo' },
] as const;

/**
 * What picks a segment's clean leads, each optional and combined with AND (decision 0039): any of
 * its Mostrador labels, one of its statuses, a lead on one of its channels, one of its agents, a
 * phone of one of its countries, created between two days (the company's calendar days, inclusive)
 * and a contact-frequency preference. What the customer did (decision 0101): the sentiment and
 * motive of their latest analysed chat, none with an open complaint, how many orders (not
 * cancelled) and how much paid revenue (paid, shipped or done; in the company's currency), and
 * how many days since their last order and since their last message (the company's calendar days).
 */
export const segmentFilters = z
  .object({
    mostradorLabelIds: z.array(zId()).max(200, formMessages.tooLong).optional(),
    statuses: z.array(zEnum(leadStatuses)).max(leadStatuses.length, formMessages.tooLong).optional(),
    platforms: z.array(zEnum(leadPlatforms)).max(leadPlatforms.length, formMessages.tooLong).optional(),
    agenteIds: z.array(zId()).max(200, formMessages.tooLong).optional(),
    countries: z.array(zEnum(countryCodes)).max(countryCodes.length, formMessages.tooLong).optional(),
    createdFrom: zDay().optional(),
    createdTo: zDay().optional(),
    frequencies: z.array(zEnum(segmentFrequencies)).max(segmentFrequencies.length, formMessages.tooLong).optional(),
    lastSentiments: z.array(zEnum(sentiments)).max(sentiments.length, formMessages.tooLong).optional(),
    lastMotives: z.array(zEnum(consultationMotives)).max(consultationMotives.length, formMessages.tooLong).optional(),
    excludeOpenComplaint: z.boolean({ error: formMessages.invalid }).optional(),
    ordersMin: zInteger().optional(),
    ordersMax: zInteger().optional(),
    revenueMin: zAmount().optional(),
    revenueMax: zAmount().optional(),
    daysSinceOrderMin: zDays().optional(),
    daysSinceOrderMax: zDays().optional(),
    daysSinceMessageMin: zDays().optional(),
    daysSinceMessageMax: zDays().optional(),
  })
  .strict()
  .refine((f) => !f.createdFrom || !f.createdTo || f.createdFrom <= f.createdTo, { message: 'La fecha «desde» va antes de «hasta»', path: ['createdTo'] })
  .superRefine((f, ctx) => {
    for (const r of segmentRanges) {
      const min = f[r.min];
      const max = f[r.max];
      if (min !== undefined && max !== undefined && min > max) ctx.addIssue({ code: 'custom', message: r.message, path: [r.max] });
    }
  });
export type SegmentFilters = z.infer<typeof segmentFilters>;

/**
 * marketing-segments (SPEC §7, /marketing/segmentos): a set of clean leads that campaigns and
 * massive label updates target. Not shown in the spec: a name (unique in the company), a
 * description and the filters that define it (`segmentFilters`). The label and agent ids are
 * nested references: only the caller's company's are accepted. POST /marketing-segments/preview
 * counts and samples a segment as it is edited (segment-api.ts).
 */
export const marketingSegments = defineResource({
  key: 'marketing-segments',
  label: 'Segmento',
  labelPlural: 'Segmentos',
  module: 'marketing',
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
    filters: segmentFilters.optional(),
  },
  refs: { 'filters.mostradorLabelIds': 'mostrador-labels', 'filters.agenteIds': 'agentes' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Compradores por WhatsApp', description: 'Ya compraron y escriben por WhatsApp', filters: { statuses: ['compra-realizada'], platforms: ['whatsapp'] } },
    { name: 'Para reconectar', description: 'Leads que dejaron de responder', filters: { statuses: ['re-conectar', 'compra-fallida'] } },
    { name: 'Todos los de Instagram', filters: { platforms: ['instagram'] } },
    { name: 'Perú, escriben cada semana', description: 'Aceptan un mensaje por semana', filters: { countries: ['PE'], frequencies: ['weekly'] } },
    { name: 'Clientes de WhatsApp en Perú', description: 'Escriben por WhatsApp desde un número peruano', filters: { platforms: ['whatsapp'], countries: ['PE'] } },
    { name: 'Compradores contentos', description: 'Dos pedidos o más, sin reclamo abierto', filters: { ordersMin: 2, excludeOpenComplaint: true, daysSinceOrderMax: 90 } },
  ],
});
