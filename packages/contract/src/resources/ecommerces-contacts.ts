import { defineResource } from '../define-resource.js';
import { zCountry, zEmail, zInteger, zPhone, zText } from '../fields.js';

/**
 * ecommerces-contacts (SPEC §7): the online stores' customers (/ecommerce/contactos). Not
 * shown in the spec: a name, optionally an email, a phone (`telefono`, as in leads), the
 * store's country and the customer's id in that store (woocommerceId).
 */
export const ecommercesContacts = defineResource({
  key: 'ecommerces-contacts',
  label: 'Contacto de e-commerce',
  labelPlural: 'Contactos de e-commerce',
  module: 'ecommerce',
  fields: {
    name: zText(120),
    email: zEmail().optional(),
    telefono: zPhone().optional(),
    country: zCountry().optional(),
    woocommerceId: zInteger(1).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'email', 'telefono'],
  sortable: ['name'],
  examples: [
    { name: 'María Fernández', email: 'maria.fernandez@gmail.com', telefono: '51987001122', country: 'PE', woocommerceId: 812 },
    { name: 'Luis Paredes', telefono: '51955443322', country: 'PE', woocommerceId: 845 },
    { name: 'Camila Soto', email: 'camila.soto@gmail.com', country: 'CL' },
  ],
});
