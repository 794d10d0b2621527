import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zCountry, zInteger, zText } from '../fields.js';

/**
 * ecommerces-attributes (SPEC §3, §7): an online store's product attributes (colour, size…).
 * From SPEC §3: nombre, terms (each with name and _id), and woocommerceId with country: the
 * attribute's id in the store of that country. _id of a term is the store's term id, as text.
 * DELETE sends {woocommerceId, country}; the record is deleted only when both match.
 */
export const ecommercesAttributes = defineResource({
  key: 'ecommerces-attributes',
  label: 'Atributo',
  labelPlural: 'Atributos',
  module: 'ecommerce',
  fields: {
    nombre: zText(120),
    terms: z
      .array(z.object({ _id: zText(64).optional(), name: zText(120) }).strict(), { error: requiredOr(formMessages.invalid) })
      .max(500, formMessages.tooLong),
    woocommerceId: zInteger(1),
    country: zCountry(),
  },
  deleteBody: z.object({ woocommerceId: zInteger(1), country: zCountry() }).strict(),
  defaultSort: { field: 'nombre', order: 'asc' },
  searchable: ['nombre'],
  sortable: ['nombre'],
  examples: [
    {
      nombre: 'Color',
      terms: [
        { _id: '31', name: 'Rojo' },
        { _id: '32', name: 'Azul' },
      ],
      woocommerceId: 1,
      country: 'PE',
    },
    { nombre: 'Presentación', terms: [{ _id: '40', name: 'Botella 500 ml' }, { _id: '41', name: 'Botella 1.5 L' }], woocommerceId: 2, country: 'PE' },
    { nombre: 'Sabores', terms: [{ name: 'Fresa' }, { name: 'Lúcuma' }, { name: 'Chicha morada' }], woocommerceId: 3, country: 'CL' },
  ],
});
