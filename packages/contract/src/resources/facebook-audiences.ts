import { defineResource } from '../define-resource.js';
import { zOptionalText, zText } from '../fields.js';

/**
 * facebook-audiences (SPEC §7, /facebook-audiencias): custom audiences leads are sent to
 * (POST /leads/send-to-audience). Not shown in the spec: a name (unique in the company), the
 * audience's id at Facebook (facebookAudienceId; absent until it is created there) and a
 * description.
 */
export const facebookAudiences = defineResource({
  key: 'facebook-audiences',
  label: 'Audiencia de Facebook',
  labelPlural: 'Audiencias de Facebook',
  module: 'marketing',
  fields: {
    name: zText(120),
    facebookAudienceId: zOptionalText(64).optional(),
    description: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Clientes recurrentes', facebookAudienceId: '23851234567890123', description: 'Compraron dos veces o más' },
    { name: 'Interesados en ofertas', facebookAudienceId: '23851234567890124', description: 'Preguntaron por promociones' },
    { name: 'Mayoristas Lima', description: 'Bodegas que compran por caja' },
  ],
});
