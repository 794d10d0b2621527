import { defineResource } from '../define-resource.js';
import { zOptionalText, zRefId, zText } from '../fields.js';

/**
 * categories (SPEC §7): the catalogue's product categories (/categorias), distinct from an
 * online store's categories (ecommerces-categories). Not shown in the spec: a category has a
 * name (unique in the company), optionally a description and a parent category (`parentId`,
 * absent for a top-level one).
 */
export const categories = defineResource({
  key: 'categories',
  label: 'Categoría',
  labelPlural: 'Categorías',
  module: 'catalog',
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
    parentId: zRefId(),
  },
  refs: { parentId: 'categories' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Abarrotes', description: 'Arroz, azúcar, menestras y aceites' },
    { name: 'Bebidas', description: 'Gaseosas, aguas y jugos' },
    { name: 'Cuidado personal', description: 'Jabones, champús y pasta dental' },
    { name: 'Golosinas', description: 'Chocolates, galletas y caramelos' },
  ],
});
