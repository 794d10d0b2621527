import { defineResource } from '../define-resource.js';
import { zCountry, zInteger, zRefId, zSlug, zText } from '../fields.js';

/** Labels reference each other across these resources (SPEC §3 "Labels"). */
export const labelRefKeys = ['ecommerces-categories', 'ecommerces-tags', 'mostrador-labels'] as const;

/**
 * ecommerces-categories (SPEC §3, §7): an online store's product categories. From SPEC §3:
 * parent (0 for a top-level one), slug, and `id`, the store's own category id; here it is
 * `externalId`, since `id`/`_id` is the record's own. foreignLabelId links the category to a
 * label it stands for (a tag or a Mostrador label, SPEC §3 "Labels"). Not shown: the name.
 * Default sort createdAt desc (SPEC §9).
 */
export const ecommercesCategories = defineResource({
  key: 'ecommerces-categories',
  label: 'Categoría de e-commerce',
  labelPlural: 'Categorías de e-commerce',
  module: 'ecommerce',
  fields: {
    name: zText(120),
    slug: zSlug(),
    parent: zInteger(0),
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
    { name: 'Ropa', slug: 'ropa', parent: 0, externalId: 21, country: 'PE' },
    { name: 'Polos', slug: 'polos', parent: 21, externalId: 34, country: 'PE' },
    { name: 'Calzado', slug: 'calzado', parent: 0, externalId: 47, country: 'PE' },
  ],
});
