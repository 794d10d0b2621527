import { defineResource } from '../define-resource.js';
import { zOptionalBoolean, zOptionalText, zRefIds, zText } from '../fields.js';

/**
 * catalogs (SPEC §3, §7): the digital catalogues shared with customers (/catalogo-digital).
 * From SPEC §3: name and the isDefault flag. Not shown in the spec: a description and the
 * products it shows (`productIds`, up to 10,000). One catalogue may be the default (SPEC §4):
 * at most one per company holds isDefault (a partial unique index); POST /catalogs/{id}/default
 * and any write that sets the flag move it from the other one in the same transaction
 * (decision 0031). Its id is public: /catalogo-digital/{id} is the shop customers open.
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
    productIds: zRefIds(10_000),
  },
  refs: { productIds: 'products' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  onlyOne: ['isDefault'],
  examples: [
    { name: 'Catálogo general', description: 'Todos los productos de la bodega', isDefault: true },
    { name: 'Ofertas de la semana', description: 'Precios especiales hasta el domingo', isDefault: false },
    { name: 'Mayorista', description: 'Precios por caja para bodegas', isDefault: false },
  ],
});
