import { z } from 'zod';
import { platforms } from './constants.js';
import { zId } from './fields.js';
import { zIdsText, zQueryDate } from './define-resource.js';
import { listQuery } from './list-query.js';
import { leadPlatforms, leadStatuses } from './resources/leads.js';

/**
 * The lead calls beyond the standard resource (SPEC §7 Leads and clean leads, issue 4).
 * Everything scoped to the caller's company; the spec's `{product}` is `mostrador`.
 *
 *   GET  /leads?status=&platform=&agenteId=…         the buckets (/lead/sin-asignar …): the standard list with field filters
 *   GET  /leads/summary                               leadSummaryQuery → LeadSummary (/resumen-leads)
 *   GET  /leads/all                                   leadFilterQuery → { payload: Lead[] } (at most LEADS_ALL_MAX)
 *   GET  /leads/get-by-mostradorlabels                byLabelsQuery → Page<Lead>
 *   POST /leads/send-to-audience                      sendToAudienceInput → AudienceSendResult
 *   GET  /leads/export                                leadFilterQuery → text/csv (email,telefono)
 *   POST /leads/import                                text/csv body → LeadImportResult
 *   GET  /clean-leads/:id                             the clean lead (standard get)
 *   GET  /clean-leads/list_with_advance_filter        leadFilterQuery → Page<CleanLead>
 *   GET  /clean-leads/all                             { mostradorLabels (text), … } → { payload: CleanLead[] }
 *   GET  /clean-leads/get-by-mostradorlabels          byLabelsQuery → Page<CleanLead>
 *   POST /clean-leads/send-to-audience                sendToAudienceInput → AudienceSendResult
 *   POST /clean-leads/set_mostrador_labels_massive    labelsMassiveInput → { msg, updated }
 *   GET  /clean-leads/get_lead_odoo_values            { id } → OdooLeadValues (docs/decisions)
 *   GET  /clean-leads/export                          leadFilterQuery → text/csv (email,telefono)
 */

export const LEADS_ALL_MAX = 10_000;

/** Label ids as the spec sends them: a JSON array string ('["id1","id2"]') or comma-separated text. */
export const zLabelIdsText = () => zIdsText('Las etiquetas deben ser ids válidos');

/**
 * The filters a lead list, export and `all` share. On clean leads (list_with_advance_filter,
 * all, export) `platform` means the person has a lead on that channel.
 */
export const leadFilterQuery = listQuery.extend({
  status: z.enum(leadStatuses, { error: 'Estado de lead desconocido' }).optional(),
  platform: z.enum(leadPlatforms, { error: 'Canal desconocido' }).optional(),
  agenteId: zId().optional(),
  mostradorLabels: zLabelIdsText().optional(),
  from: zQueryDate().optional(),
  to: zQueryDate().optional(),
});

/** GET /leads/summary: counts in [from, to) — default the last 6 months. */
export const leadSummaryQuery = z.object({ from: zQueryDate().optional(), to: zQueryDate().optional() }).strict();
export const leadSummaryOut = z.object({
  from: z.string(),
  to: z.string(),
  total: z.number().int(),
  byStatus: z.array(z.object({ status: z.enum(leadStatuses), count: z.number().int() })),
  byPlatform: z.array(z.object({ platform: z.enum(leadPlatforms), count: z.number().int() })),
  /** Month 'YYYY-MM' in the company's time zone. */
  byMonth: z.array(z.object({ month: z.string(), platform: z.enum(leadPlatforms), count: z.number().int() })),
});
export type LeadSummary = z.infer<typeof leadSummaryOut>;

/** GET …/get-by-mostradorlabels: leads with any of the labels; showMissingLeads: only those not yet in audienceId. */
export const byLabelsQuery = listQuery.extend({
  mostradorLabels: zLabelIdsText(),
  company: zId().optional(),
  audienceId: zId().optional(),
  showMissingLeads: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .optional(),
});

/** POST …/send-to-audience: validated, recorded and queued; the `audience.upload` job uploads it to Meta (decision 0048). */
export const sendToAudienceInput = z
  .object({
    audienceId: zId(),
    facebookAudienceId: z.string().trim().regex(/^\d{1,40}$/, 'Solo dígitos: el identificador de la audiencia en Meta').optional(),
    mostradorLabels: z.array(zId(), { error: 'Debe ser una lista' }).min(1, 'Elige al menos una etiqueta'),
    showMissingLeads: z.boolean().optional(),
    company: zId().optional(),
  })
  .strict();
export const audienceSendResult = z.object({ msg: z.string(), sendId: z.string(), count: z.number().int() });

/** POST /clean-leads/set_mostrador_labels_massive: add labels to every clean lead of a segment. */
export const labelsMassiveInput = z
  .object({
    segmentId: zId(),
    mostradorLabelIds: z.array(zId(), { error: 'Debe ser una lista' }).min(1, 'Elige al menos una etiqueta'),
    hasToSendToMailchimp: z.boolean().optional(),
  })
  .strict();
/** `updated`: clean leads of the segment that lacked a label and now carry them all. */
export const labelsMassiveResult = z.object({ msg: z.string(), updated: z.number().int(), mailchimpSyncId: z.string().optional() });

/** GET /leads/summary: the widest window, in months. */
export const LEADS_SUMMARY_MAX_MONTHS = 36;

/** GET /clean-leads/get_lead_odoo_values?id= */
export const odooValuesQuery = z.object({ id: zId() }).strict();
/**
 * The values an Odoo CRM `crm.lead` create takes for a clean lead (decision 0015). Real
 * crm.lead fields, except the three an integration resolves to ids first: `tag_names` →
 * tag_ids (crm.tag by name), `user_email` → user_id (res.users by login), `stage_name` →
 * stage_id (crm.stage by name).
 */
export const odooLeadValues = z.object({
  name: z.string(),
  contact_name: z.string(),
  email_from: z.string().optional(),
  phone: z.string().optional(),
  type: z.literal('lead'),
  description: z.string(),
  tag_names: z.array(z.string()),
  user_email: z.string().optional(),
  stage_name: z.string(),
  probability: z.number(),
  active: z.boolean(),
});
export type OdooLeadValues = z.infer<typeof odooLeadValues>;

/**
 * POST /leads/import: what happened to each row. Row numbers count the header as row 1.
 * `warnings`: rows imported with a note (a label the company does not have, decision 0022).
 */
export const leadImportResult = z.object({
  msg: z.string(),
  created: z.number().int(),
  merged: z.number().int(),
  rejected: z.array(z.object({ row: z.number().int(), reason: z.string() })),
  warnings: z.array(z.object({ row: z.number().int(), reason: z.string() })).optional(),
});
export type LeadImportResult = z.infer<typeof leadImportResult>;
export const LEAD_IMPORT_MAX_ROWS = 20_000;

/** The platforms a chat can be on (a web lead has no chat). */
export const chatPlatforms = platforms;

/** The person behind a lead or chat, its duplicates and their merge (issue 11): person-api.ts. */
export * from './person-api.js';

/** POST /retail-rocket-tags/{id}/import: a RetailRocket segment's export as leads with the tag's label (decision 0055). */
export const retailRocketImportParams = z.object({ id: zId() }).strict();
