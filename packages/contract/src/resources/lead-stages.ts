import { defineResource } from '../define-resource.js';
import { zEnum, zInteger, zText } from '../fields.js';
import { leadStatuses } from './leads.js';

/**
 * lead-stages (issue 31, decision 0099): the stages a company adds to its pipeline board
 * (/lead/tablero) beyond the spec's five statuses. Each maps onto one of the five (`mapsTo`):
 * a lead in a stage has that status, so it is listed by the spec's /lead/… screen of that status
 * and obeys its rules. `position` orders the stages of one status: on the board each sits after
 * its status's own column, in that order. Deleting a stage returns its leads to their status's
 * own column; changing what it maps to does the same (the database keeps it so).
 */
export const leadStages = defineResource({
  key: 'lead-stages',
  label: 'Etapa',
  labelPlural: 'Etapas del tablero',
  module: 'leads',
  fields: {
    name: zText(60),
    mapsTo: zEnum(leadStatuses, 'Elige a qué estado corresponde la etapa'),
    position: zInteger(0),
  },
  defaultSort: { field: 'position', order: 'asc' },
  searchable: ['name'],
  sortable: ['name', 'position'],
  unique: ['name'],
  examples: [
    { name: 'Respondido por el bot', mapsTo: 'sin-asignar', position: 1 },
    { name: 'Cotización enviada', mapsTo: 'informado-al-agente', position: 1 },
    { name: 'Esperando pago', mapsTo: 'informado-al-agente', position: 2 },
    { name: 'Sin respuesta', mapsTo: 're-conectar', position: 1 },
  ],
});
