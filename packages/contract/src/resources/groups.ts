import { defineResource } from '../define-resource.js';
import { zOptionalText, zText } from '../fields.js';

/**
 * groups (SPEC §3, §7, /grupos): groups of users. From SPEC §3: name, and a user list, which
 * is not a field here: members are read and replaced through GET and PUT /groups/{id}/users.
 * Not shown: a description. The name is unique in the company.
 */
export const groups = defineResource({
  key: 'groups',
  label: 'Grupo',
  labelPlural: 'Grupos',
  module: 'groups',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Atención al cliente', description: 'Responden chats y comentarios' },
    { name: 'Marketing', description: 'Campañas, segmentos y audiencias' },
    { name: 'Supervisores de tienda', description: 'Revisan pedidos y métricas' },
  ],
});
