import { defineResource } from '../define-resource.js';
import { zEmail, zOptionalBoolean, zPhone, zRefId, zText } from '../fields.js';

/**
 * agentes (SPEC §7): the people who answer chats and follow leads. Not shown in the spec: an
 * agent has a name, optionally an email and a phone (digits with country code), the sales
 * team they belong to and an active flag (absent = active; an inactive agent gets no new
 * leads). An agent is not necessarily a user who signs in.
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
  },
  refs: { equipoDeVentasId: 'equipos-de-ventas' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'email', 'phone'],
  sortable: ['name'],
  examples: [
    { name: 'Carla Mendoza', email: 'carla.mendoza@bodegalucho.pe', phone: '51987654321', active: true },
    { name: 'Diego Ramírez', email: 'diego.ramirez@bodegalucho.pe', phone: '51912345678', active: true },
    { name: 'Rosa Huamán', phone: '51945612378', active: false },
  ],
});
