import { defineResource } from '../define-resource.js';
import { zOptionalText, zText } from '../fields.js';

/**
 * equipos-de-ventas (SPEC §7): the sales teams agents belong to (SPEC §3 "equipoDeVentas").
 * Not shown in the spec: a team has a name (unique in the company) and optionally a
 * description; its agents point at it (agentes.equipoDeVentasId).
 */
export const equiposDeVentas = defineResource({
  key: 'equipos-de-ventas',
  label: 'Equipo de ventas',
  labelPlural: 'Equipos de ventas',
  module: 'organization',
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Canal WhatsApp Lima', description: 'Atiende pedidos por WhatsApp en Lima Metropolitana' },
    { name: 'Mayoristas Norte', description: 'Bodegas y minimarkets de Trujillo y Chiclayo' },
    { name: 'Ventas por Instagram', description: 'Consultas y pedidos desde Instagram y Messenger' },
  ],
});
