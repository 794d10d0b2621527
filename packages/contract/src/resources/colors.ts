import { defineResource } from '../define-resource.js';
import { zHexColor, zText } from '../fields.js';

/** colors (SPEC §7). Not shown in the spec: a colour has a name and a hex code (#RRGGBB). */
export const colors = defineResource({
  key: 'colors',
  label: 'Color',
  labelPlural: 'Colores',
  module: 'catalog',
  fields: {
    name: zText(60),
    hex: zHexColor(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'hex'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Morado Mostrador', hex: '#28156C' },
    { name: 'Rojo carmesí', hex: '#dc143c' },
    { name: 'Verde limón', hex: '#32CD32' },
    { name: 'Azul marino', hex: '#000080' },
  ],
});
