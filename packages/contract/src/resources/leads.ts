import { z } from 'zod';
import { platforms } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zDateTime, zEmail, zEnum, zOptionalText, zPhone, zRefId, zRefIds, zText } from '../fields.js';

/** A lead's state: the lead screens of SPEC §2 (/lead/sin-asignar …). */
export const leadStatuses = ['sin-asignar', 're-conectar', 'informado-al-agente', 'compra-realizada', 'compra-fallida'] as const;
export type LeadStatus = (typeof leadStatuses)[number];
export const leadStatusLabels: Record<LeadStatus, string> = {
  'sin-asignar': 'Sin asignar',
  're-conectar': 'Re-conectar',
  'informado-al-agente': 'Informado al agente',
  'compra-realizada': 'Compra realizada',
  'compra-fallida': 'Compra fallida',
};

/** Where a lead came from: the platforms of SPEC §9, and web (forms, online store). */
export const leadPlatforms = [...platforms, 'web'] as const;
export type LeadPlatform = (typeof leadPlatforms)[number];

/** One contact of a lead (SPEC §3: details, each with email; clean leads: with updatedAt, newest first). */
export const leadDetail = z
  .object({
    email: zEmail().optional(),
    message: zOptionalText(4000).optional(),
    source: zOptionalText(120).optional(),
    updatedAt: zDateTime(),
  })
  .strict();
/** The most details a lead or clean lead keeps (the newest; writers drop the oldest). */
export const LEAD_DETAILS_MAX = 500;
export const leadDetails = () =>
  z.array(leadDetail, { error: requiredOr(formMessages.invalid) }).max(LEAD_DETAILS_MAX, formMessages.tooLong).optional();

/**
 * leads (SPEC §3, §7): people who wrote to the business. From SPEC §3: telefonoId (the
 * business number they wrote to), mostradorLabels (ids of Mostrador labels; the spec's name,
 * hence no `Ids`), telefono, details (each with email) and audienceId (the Facebook audience
 * the lead was sent to, a facebook-audiences record). Not shown: a name, an email, the
 * platform, the status (the lead screens of SPEC §2) and the assigned agent; the platform's
 * user id and the clean lead it belongs to (webhooks, docs/decisions/0013). Default sort
 * createdAt desc: newest leads first.
 */
export const leads = defineResource({
  key: 'leads',
  label: 'Lead',
  labelPlural: 'Leads',
  module: 'leads',
  fields: {
    name: zText(120),
    telefono: zPhone().optional(),
    email: zEmail().optional(),
    platform: zEnum(leadPlatforms),
    status: zEnum(leadStatuses),
    telefonoId: zRefId(),
    agenteId: zRefId(),
    mostradorLabels: zRefIds(),
    audienceId: zRefId(),
    details: leadDetails(),
    /** The person's id on the platform (WhatsApp wa_id, Messenger PSID, Instagram IGSID), set by the webhooks. */
    platformUserId: zOptionalText(200).optional(),
    /** The clean lead (one per person) this lead was merged into, by normalised phone or e-mail. */
    cleanLeadId: zRefId(),
    /**
     * The company's own board stage the lead is in (lead-stages, decision 0099), one that maps
     * onto its status; empty: the status's own column. Setting it alone sets the status too.
     */
    stageId: zRefId(),
  },
  refs: {
    telefonoId: 'telefonos',
    agenteId: 'agentes',
    mostradorLabels: 'mostrador-labels',
    audienceId: 'facebook-audiences',
    cleanLeadId: 'clean-leads',
    stageId: 'lead-stages',
  },
  operations: ['list', 'get', 'create', 'update', 'delete'],
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'telefono', 'email'],
  sortable: ['name', 'status'],
  filterable: ['status', 'platform', 'agenteId', 'mostradorLabels', 'cleanLeadId', 'telefonoId', 'telefono', 'email', 'stageId', 'createdAt'],
  examples: [
    {
      name: 'María Fernández',
      telefono: '51987001122',
      email: 'maria.fernandez@gmail.com',
      platform: 'whatsapp',
      status: 'sin-asignar',
      details: [{ email: 'maria.fernandez@gmail.com', message: 'Hola, ¿tienen delivery a Surco?', source: 'whatsapp', updatedAt: '2025-03-14T15:30:00Z' }],
    },
    {
      name: 'Luis Paredes',
      telefono: '51955443322',
      platform: 'facebook',
      status: 'informado-al-agente',
      details: [{ message: 'Quiero el precio por caja de Inca Kola', source: 'messenger', updatedAt: '2025-03-15T10:05:00Z' }],
    },
    { name: 'Rosa Quispe', email: 'rosa.quispe@hotmail.com', platform: 'instagram', status: 'compra-realizada' },
  ],
});
