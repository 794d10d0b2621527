import { defineResource } from '../define-resource.js';
import { zHexColor, zOptionalText, zRefId, zText } from '../fields.js';
import { labelRefKeys } from './ecommerces-categories.js';

/**
 * mostrador-labels (SPEC §7, /etiquetas-mostrador): the company's own labels for leads and
 * chats. Not shown in the spec: a name (unique in the company), a colour (#RRGGBB) and a
 * description; foreignLabelId links it to the store category or tag it stands for (SPEC §3
 * "Labels").
 */
export const mostradorLabels = defineResource({
  key: 'mostrador-labels',
  label: 'Etiqueta Mostrador',
  labelPlural: 'Etiquetas Mostrador',
  module: 'leads',
  fields: {
    name: zText(80),
    color: zHexColor(),
    description: zOptionalText(500).optional(),
    foreignLabelId: zRefId(),
  },
  refs: { foreignLabelId: labelRefKeys },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Cliente frecuente', color: '#28156C', description: 'Compra al menos una vez al mes' },
    { name: 'Mayorista', color: '#1e90ff', description: 'Compra por caja para su bodega' },
    { name: 'Reclamo pendiente', color: '#DC143C', description: 'Tiene un reclamo sin resolver' },
  ],
});
