import { defineResource } from '../define-resource.js';
import { zOptionalText, zText } from '../fields.js';

/**
 * retail-rocket-tags (SPEC §7, /retail-rocket/etiquetas): tags pushed to RetailRocket for
 * product recommendations and email segments. Not shown in the spec: a name (unique in the
 * company), the RetailRocket segment id it maps to and a description.
 */
export const retailRocketTags = defineResource({
  key: 'retail-rocket-tags',
  label: 'Etiqueta de RetailRocket',
  labelPlural: 'Etiquetas de RetailRocket',
  module: 'marketing',
  fields: {
    name: zText(100),
    segmentId: zOptionalText(40).optional(),
    description: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Amantes del chocolate', segmentId: '7781', description: 'Compraron chocolates o golosinas' },
    { name: 'Carrito abandonado', segmentId: '7782', description: 'Dejaron productos en el carrito' },
    { name: 'Primera compra', description: 'Clientes con un solo pedido' },
  ],
});
