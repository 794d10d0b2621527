import { z } from 'zod';
import { platforms } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zEmail, zOptionalBoolean, zPhone, zRefId, zText } from '../fields.js';

// lower case only: the value is lower-cased before the check
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The user an agent is (decision 0025). Users are not a standard resource, so this is not a
 * `refs` reference: the agent rules check it instead (a member of the company, at most one
 * agent per user and company). Stored as text.
 */
const zUserId = () => z.string({ error: formMessages.invalid }).trim().toLowerCase().regex(uuidPattern, 'Elige un usuario de la compañía');

/**
 * agentes (SPEC §7): the people who answer chats and follow leads. Not shown in the spec: an
 * agent has a name, optionally an email and a phone (digits with country code), the sales
 * team they belong to and an active flag (absent = active). Decision 0025: an agent is one
 * user of the company (`userId`; one agent per user and company; an admin may be one too):
 * assigning a chat or lead to the agent assigns it to that person, who then finds it in
 * "Mías". An inactive agent cannot be chosen and gets no new leads. `available` (set by the
 * person from the user menu: Disponible / Ausente) and `platforms` (the channels they answer;
 * none = all) drive the automatic assignment.
 */
export const agentes = defineResource({
  key: 'agentes',
  label: 'Agente',
  labelPlural: 'Agentes',
  module: 'organization',
  fields: {
    name: zText(120),
    email: zEmail().optional(),
    phone: zPhone().optional(),
    equipoDeVentasId: zRefId(),
    active: zOptionalBoolean(),
    userId: zUserId().optional(),
    available: zOptionalBoolean(),
    platforms: z.array(z.enum(platforms, { error: 'Canal desconocido' }), { error: formMessages.invalid }).max(platforms.length, formMessages.tooLong).optional(),
  },
  refs: { equipoDeVentasId: 'equipos-de-ventas' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'email', 'phone'],
  sortable: ['name'],
  unique: ['userId'],
  examples: [
    { name: 'Carla Mendoza', email: 'carla.mendoza@bodegalucho.pe', phone: '51987654321', active: true },
    { name: 'Diego Ramírez', email: 'diego.ramirez@bodegalucho.pe', phone: '51912345678', active: true, platforms: ['whatsapp'] },
    { name: 'Rosa Huamán', phone: '51945612378', active: false },
  ],
});
