import { defineResource } from '../define-resource.js';
import { zOptionalBoolean, zOptionalText, zRefIds, zText } from '../fields.js';

/**
 * catalogs (SPEC §3, §7): the digital catalogues shared with customers (/catalogo-digital).
 * From SPEC §3: name and the isDefault flag. Not shown in the spec: a description and the
 * products it shows (`productIds`). One catalogue may be the default (SPEC §4): the flag is
 * moved by POST /catalogs/{id}/default, which clears it on the others.
 */
export const catalogs = defineResource({
  key: 'catalogs',
  label: 'Catálogo',
  labelPlural: 'Catálogos',
  module: 'catalog',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    description: zOptionalText(500).optional(),
    isDefault: zOptionalBoolean(),
    productIds: zRefIds(),
  },
  refs: { productIds: 'products' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Catálogo general', description: 'Todos los productos de la bodega', isDefault: true },
    { name: 'Ofertas de la semana', description: 'Precios especiales hasta el domingo', isDefault: false },
    { name: 'Mayorista', description: 'Precios por caja para bodegas', isDefault: false },
  ],
});
