import { defineResource } from '../define-resource.js';
import { zOptionalText, zRefId, zText } from '../fields.js';
import { labelRefKeys } from './ecommerces-categories.js';

/**
 * facebook-labels (SPEC §7, /etiquetas-facebook): the page's Messenger labels. Not shown in
 * the spec: a name (unique in the company) and the label's id at Facebook
 * (facebookLabelId); foreignLabelId links it to the label it stands for (SPEC §3 "Labels").
 */
export const facebookLabels = defineResource({
  key: 'facebook-labels',
  label: 'Etiqueta de Facebook',
  labelPlural: 'Etiquetas de Facebook',
  module: 'leads',
  fields: {
    name: zText(80),
    facebookLabelId: zOptionalText(64).optional(),
    foreignLabelId: zRefId(),
  },
  refs: { foreignLabelId: labelRefKeys },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'facebookLabelId'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Cliente nuevo', facebookLabelId: '5432109876543210' },
    { name: 'Pedido pendiente', facebookLabelId: '5432109876543211' },
    { name: 'Venta cerrada', facebookLabelId: '5432109876543212' },
  ],
});
