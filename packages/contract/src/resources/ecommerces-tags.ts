import { defineResource } from '../define-resource.js';
import { zCountry, zInteger, zRefId, zSlug, zText } from '../fields.js';
import { labelRefKeys } from './ecommerces-categories.js';

/**
 * ecommerces-tags (SPEC §7): an online store's product tags. Not shown in the spec, by
 * analogy with the store's categories (SPEC §3): name, slug, `externalId` (the store's own tag
 * id) and foreignLabelId (the label it stands for, SPEC §3 "Labels"). Default sort createdAt
 * desc (SPEC §9).
 */
export const ecommercesTags = defineResource({
  key: 'ecommerces-tags',
  label: 'Etiqueta de e-commerce',
  labelPlural: 'Etiquetas de e-commerce',
  module: 'ecommerce',
  fields: {
    name: zText(120),
    slug: zSlug(),
    externalId: zInteger(1).optional(),
    foreignLabelId: zRefId(),
    /** The store (by its country) the category or tag belongs to; empty: not from a store. */
    country: zCountry().optional(),
  },
  refs: { foreignLabelId: labelRefKeys },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'slug'],
  sortable: ['name'],
  filterable: ['country'],
  examples: [
    { name: 'Oferta', slug: 'oferta', externalId: 102, country: 'PE' },
    { name: 'Envío gratis', slug: 'envio-gratis', externalId: 108, country: 'PE' },
    { name: 'Nuevo ingreso', slug: 'nuevo-ingreso' },
  ],
});
