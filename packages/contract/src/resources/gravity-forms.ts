import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { zInteger, zRefIds, zText, zUrl } from '../fields.js';

/** A Gravity Forms field or input id: `3`, or `1.3` for one input of a field (a name's first name). */
export const zGravityFieldId = () =>
  z
    .string({ error: 'Elige un campo del formulario' })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,3})?$/, 'Es el id de un campo del formulario (como 3 o 1.3)');

/**
 * Which field of the form holds each part of the person (decision 0050): the entry's keys are
 * the form's field ids (`"2"`) or input ids (`"1.3"` first name, `"1.6"` last name). A name
 * field may be given whole (`name`) or as first and last name; the message keeps the person's
 * words on the lead.
 */
export const gravityFieldMap = z
  .object({
    name: zGravityFieldId().optional(),
    firstName: zGravityFieldId().optional(),
    lastName: zGravityFieldId().optional(),
    phone: zGravityFieldId().optional(),
    email: zGravityFieldId().optional(),
    message: zGravityFieldId().optional(),
  })
  .strict();
export type GravityFieldMap = z.infer<typeof gravityFieldMap>;

/**
 * gravity-forms (SPEC §7, /gravity-forms): WordPress Gravity Forms whose entries become leads
 * (decision 0050). Not shown in the spec: a name, the form's id on the site, the site's URL,
 * the Mostrador labels given to the leads it creates; the REST API v2 keys of the site
 * (consumer key and secret, write-only, sealed) and which form field is the name, phone,
 * e-mail and message (`fieldMap`). A site whose host ends in `.sandbox.test` is the demo's
 * sandbox (no internet). The webhook secret is not a field: the server generates it and shows
 * it once (POST /gravity-forms/{id}/webhook-secret).
 */
export const gravityForms = defineResource({
  key: 'gravity-forms',
  label: 'Formulario Gravity Forms',
  labelPlural: 'Formularios Gravity Forms',
  module: 'marketing',
  fields: {
    name: zText(120),
    formId: zInteger(1),
    siteUrl: zUrl(),
    mostradorLabelIds: zRefIds(),
    consumerKey: zText(200).optional(),
    consumerSecret: zText(200).optional(),
    fieldMap: gravityFieldMap.optional(),
  },
  writeOnly: ['consumerKey', 'consumerSecret'],
  refs: { mostradorLabelIds: 'mostrador-labels' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'siteUrl'],
  sortable: ['name'],
  examples: [
    {
      name: 'Contacto web',
      formId: 1,
      siteUrl: 'https://bodegalucho.sandbox.test',
      consumerKey: 'ck_sandbox0gf1',
      consumerSecret: 'cs_sandbox0gf1',
      fieldMap: { firstName: '1.3', lastName: '1.6', email: '2', phone: '3', message: '4' },
    },
    {
      name: 'Cotización mayorista',
      formId: 3,
      siteUrl: 'https://bodegalucho.sandbox.test',
      consumerKey: 'ck_sandbox0gf1',
      consumerSecret: 'cs_sandbox0gf1',
      fieldMap: { name: '1', phone: '2', email: '3', message: '5' },
    },
    { name: 'Libro de reclamaciones', formId: 7, siteUrl: 'https://bodegalucho.pe' },
  ],
});
