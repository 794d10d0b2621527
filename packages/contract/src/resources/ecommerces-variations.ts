import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zAmount, zInteger, zRefId, zText } from '../fields.js';

/**
 * ecommerces-variations (screen /ecommerce/productos-variaciones, SPEC §2 "variations (no
 * create or edit)"): the variations of the online stores' products, as the stores report
 * them. Not shown in the spec: the product (ecommerceId), a SKU (one per product and store), the
 * attribute values that make it (Talla M, Color Blanco), price, stock and the variation's id
 * in the store. They are listed, read and deleted here; they are created and changed by the
 * store synchronisation and by the product calls (SPEC §7 /{id}/variations/…).
 */
export const ecommercesVariations = defineResource({
  key: 'ecommerces-variations',
  label: 'Variación',
  labelPlural: 'Variaciones',
  module: 'ecommerce',
  operations: ['list', 'get', 'delete'],
  fields: {
    ecommerceId: zRefId(),
    sku: zText(60)
      .toUpperCase()
      .regex(/^[A-Z0-9._-]+$/, 'Solo letras, números, puntos y guiones'),
    attributes: z
      .array(z.object({ nombre: zText(60), value: zText(60) }).strict(), { error: formMessages.invalid })
      .max(10, formMessages.tooLong),
    price: zAmount(),
    stock: zInteger(0),
    woocommerceId: zInteger(1).optional(),
  },
  refs: { ecommerceId: 'ecommerces' },
  defaultSort: { field: 'sku', order: 'asc' },
  searchable: ['sku'],
  sortable: ['sku', 'price', 'stock'],
  // a product's page lists its variations; the same SKU may exist in each country's store
  filterable: ['ecommerceId'],
  examples: [
    { sku: 'POLO-PIMA-BLANCO-M', attributes: [{ nombre: 'Talla', value: 'M' }, { nombre: 'Color', value: 'Blanco' }], price: 59.9, stock: 30, woocommerceId: 2301 },
    { sku: 'POLO-PIMA-BLANCO-L', attributes: [{ nombre: 'Talla', value: 'L' }, { nombre: 'Color', value: 'Blanco' }], price: 59.9, stock: 24, woocommerceId: 2302 },
    { sku: 'CHOMPA-ALP-GRIS-M', attributes: [{ nombre: 'Talla', value: 'M' }, { nombre: 'Color', value: 'Gris' }], price: 189, stock: 12, woocommerceId: 2303 },
  ],
});
