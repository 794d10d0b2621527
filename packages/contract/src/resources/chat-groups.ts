import { defineResource } from '../define-resource.js';
import { zHexColor, zRefIds, zText } from '../fields.js';

/**
 * chat_groups (SPEC §7: GET and POST /users/chat_groups, PUT and DELETE
 * /users/chat_groups/{id}): groups that split the chat inbox among agents by label. Not shown
 * in the spec: a name (unique in the company), a colour (#RRGGBB), the Mostrador labels whose
 * chats it holds and the agents who see them.
 */
export const chatGroups = defineResource({
  key: 'chat_groups',
  label: 'Grupo de chat',
  labelPlural: 'Grupos de chat',
  module: 'chats',
  path: 'users/chat_groups',
  fields: {
    name: zText(120),
    color: zHexColor(),
    mostradorLabelIds: zRefIds(),
    agenteIds: zRefIds(),
  },
  refs: { mostradorLabelIds: 'mostrador-labels', agenteIds: 'agentes' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Mayoristas', color: '#1E90FF' },
    { name: 'Pedidos del día', color: '#32CD32' },
    { name: 'Reclamos', color: '#dc143c' },
  ],
});
