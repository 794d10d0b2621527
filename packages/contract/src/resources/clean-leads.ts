import { defineResource } from '../define-resource.js';
import { zEmail, zEnum, zInteger, zOptionalBoolean, zPhone, zRefId, zRefIds, zText } from '../fields.js';
import { leadDetails, leadStatuses } from './leads.js';

/**
 * clean-leads (SPEC §3, §7): leads after de-duplication, one per person. From SPEC §3:
 * details, each with updatedAt and email, kept newest first (the writer orders them; the
 * schema does not reorder). Not shown: name, phone, email, the lead status and agent, and
 * mostradorLabels as on leads. Default sort updatedAt desc: the latest activity first.
 */
export const cleanLeads = defineResource({
  key: 'clean-leads',
  label: 'Lead limpio',
  labelPlural: 'Leads limpios',
  module: 'leads',
  fields: {
    name: zText(120),
    telefono: zPhone().optional(),
    email: zEmail().optional(),
    status: zEnum(leadStatuses),
    agenteId: zRefId(),
    mostradorLabels: zRefIds(),
    details: leadDetails(),
    /** How often the business may write to the person, in days (/dias-frecuencia, decision 0017). */
    contactFrequencyDays: zInteger(1).max(365, 'Este campo debe ser como máximo 365').optional(),
    /** The person asked not to receive messages (/dias-frecuencia). */
    optOut: zOptionalBoolean(),
  },
  refs: { agenteId: 'agentes', mostradorLabels: 'mostrador-labels' },
  defaultSort: { field: 'updatedAt', order: 'desc' },
  searchable: ['name', 'telefono', 'email'],
  sortable: ['name', 'status'],
  filterable: ['status', 'agenteId', 'mostradorLabels', 'telefono', 'email', 'createdAt'],
  operations: ['list', 'get', 'create', 'update', 'delete'],
  examples: [
    {
      name: 'María Fernández',
      telefono: '51987001122',
      email: 'maria.fernandez@gmail.com',
      status: 'compra-realizada',
      details: [
        { email: 'maria.fernandez@gmail.com', source: 'woocommerce', updatedAt: '2025-03-20T18:00:00Z' },
        { email: 'maria.fernandez@gmail.com', source: 'whatsapp', updatedAt: '2025-03-14T15:30:00Z' },
      ],
    },
    { name: 'Luis Paredes', telefono: '51955443322', status: 're-conectar' },
    {
      name: 'Rosa Quispe',
      email: 'rosa.quispe@hotmail.com',
      status: 'compra-fallida',
      details: [{ email: 'rosa.quispe@hotmail.com', message: 'No llegó a pagar el carrito', updatedAt: '2025-03-18T09:12:00Z' }],
    },
  ],
});
