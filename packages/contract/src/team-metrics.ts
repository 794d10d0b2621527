import { z } from 'zod';
import { METRICS_MAX_DAYS } from './metrics-api.js';

/**
 * How the team answers (issue 31, decision 0094): per agent, team, channel or label, the
 * conversations started in a window (the company's local days), their first response and
 * resolution times (median and p90, in seconds, in the company's business hours or by the clock
 * as its setting says), the share within the company's targets, reopenings, the chats handled and
 * the sales of those chats (orders paid, shipped or completed) with their revenue per currency.
 *
 *   GET /metrics/team?from&to&groupBy=agent|team|channel|label → TeamMetricsOut
 *   GET /metrics/team/settings → TeamSlaSettingsOut
 *   PUT /metrics/team/settings  TeamSlaSettingsIn → TeamSlaSettingsOut
 *
 * Only a person's message answers (not a bot's, a rule's, a campaign's, an away message or a note).
 */
export const teamGroupings = ['agent', 'team', 'channel', 'label'] as const;
export type TeamGrouping = (typeof teamGroupings)[number];
export const teamGroupingLabels: Record<TeamGrouping, string> = { agent: 'Agente', team: 'Equipo', channel: 'Canal', label: 'Etiqueta' };

export const teamMeasures = ['business', 'wall'] as const;
export type TeamMeasure = (typeof teamMeasures)[number];
export const teamMeasureLabels: Record<TeamMeasure, string> = { business: 'En horario de atención', wall: 'Tiempo corrido (reloj)' };

/** The longest window the report reads: the metrics screen's (its «Todo el tiempo»). */
export const TEAM_METRICS_MAX_DAYS = METRICS_MAX_DAYS;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const zDay = () =>
  z
    .string({ error: 'Debe ser una fecha (AAAA-MM-DD)' })
    .trim()
    .refine((v) => DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), { message: 'Debe ser una fecha (AAAA-MM-DD)' });

/** The window (inclusive local days; default: the last 30 days to today) and the grouping (default: agent). */
export const teamMetricsQuery = z
  .object({
    from: zDay().optional(),
    to: zDay().optional(),
    groupBy: z.enum(teamGroupings, { error: 'Agrupa por agente, equipo, canal o etiqueta' }).default('agent'),
  })
  .strict();
export type TeamMetricsQuery = z.input<typeof teamMetricsQuery>;

const seconds = () => z.number().int().nullable();
const share = () => z.number().min(0).max(1).nullable();

export const teamMetricsRow = z.object({
  /** The agent's user id, team id, channel or label id; null: none (not answered, no team, no label). */
  key: z.string().nullable(),
  /** Its Spanish name («Sin responder», «Sin equipo», «Sin etiqueta» for none). */
  name: z.string(),
  conversations: z.number().int(),
  chats: z.number().int(),
  answered: z.number().int(),
  firstResponseMedian: seconds(),
  firstResponseP90: seconds(),
  firstResponseWithinTarget: share(),
  nextResponses: z.number().int(),
  nextResponseAverage: seconds(),
  resolved: z.number().int(),
  resolutionMedian: seconds(),
  resolutionP90: seconds(),
  resolutionWithinTarget: share(),
  reopenings: z.number().int(),
  salesClosed: z.number().int(),
  revenue: z.array(z.object({ currency: z.string(), amount: z.number() })),
});
export type TeamMetricsRow = z.infer<typeof teamMetricsRow>;

export const teamMetricsOut = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  groupBy: z.enum(teamGroupings),
  measure: z.enum(teamMeasures),
  firstResponseMinutes: z.number().int(),
  resolutionHours: z.number().int(),
  rows: z.array(teamMetricsRow),
});
export type TeamMetricsOut = z.infer<typeof teamMetricsOut>;

export const teamSlaSettingsIn = z
  .object({
    firstResponseMinutes: z.number({ error: 'Debe ser un número de minutos' }).int('Debe ser un número entero de minutos').min(1, 'Debe ser al menos 1 minuto').max(10_080, 'Debe ser como máximo 10080 minutos (una semana)'),
    resolutionHours: z.number({ error: 'Debe ser un número de horas' }).int('Debe ser un número entero de horas').min(1, 'Debe ser al menos 1 hora').max(2_160, 'Debe ser como máximo 2160 horas (90 días)'),
    measure: z.enum(teamMeasures, { error: 'Elige horario de atención o tiempo corrido' }),
  })
  .strict();
export type TeamSlaSettingsIn = z.infer<typeof teamSlaSettingsIn>;
export const teamSlaSettingsOut = teamSlaSettingsIn.extend({ saved: z.boolean(), updatedAt: z.string().nullable() });
export type TeamSlaSettingsOut = z.infer<typeof teamSlaSettingsOut>;
export const TEAM_SLA_DEFAULTS: TeamSlaSettingsIn = { firstResponseMinutes: 5, resolutionHours: 24, measure: 'business' };
