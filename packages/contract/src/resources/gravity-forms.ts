import { defineResource } from '../define-resource.js';
import { zInteger, zRefIds, zText, zUrl } from '../fields.js';

/**
 * gravity-forms (SPEC §7, /gravity-forms): WordPress Gravity Forms whose entries become leads.
 * Not shown in the spec: a name, the form's id on the site, the site's URL and the Mostrador
 * labels given to the leads it creates.
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
  },
  refs: { mostradorLabelIds: 'mostrador-labels' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'siteUrl'],
  sortable: ['name'],
  examples: [
    { name: 'Contacto web', formId: 1, siteUrl: 'https://bodegalucho.pe' },
    { name: 'Cotización mayorista', formId: 3, siteUrl: 'https://bodegalucho.pe' },
    { name: 'Libro de reclamaciones', formId: 7, siteUrl: 'https://bodegalucho.pe' },
  ],
});
