import { defineResource } from '../define-resource.js';
import { zCountry, zText, zUrl } from '../fields.js';

/**
 * woocommerces (SPEC §7): the company's WooCommerce stores, one per country at most in
 * practice. Not shown in the spec: a name (unique in the company), the store URL, its
 * country and the REST API keys (consumerKey `ck_…`, consumerSecret `cs_…`): required on
 * create, write-only (responses carry `consumerKeySet`, `consumerSecretSet`).
 */
export const woocommerces = defineResource({
  key: 'woocommerces',
  label: 'Tienda WooCommerce',
  labelPlural: 'Tiendas WooCommerce',
  module: 'integrations',
  fields: {
    name: zText(120),
    url: zUrl(),
    country: zCountry(),
    consumerKey: zText(200).regex(/^ck_[A-Za-z0-9]+$/, 'La clave debe empezar con ck_'),
    consumerSecret: zText(200).regex(/^cs_[A-Za-z0-9]+$/, 'El secreto debe empezar con cs_'),
  },
  writeOnly: ['consumerKey', 'consumerSecret'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'url'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Lima principal', url: 'https://tienda.bodegalucho.pe', country: 'PE', consumerKey: 'ck_ejemplo0pe', consumerSecret: 'cs_ejemplo0pe' },
    { name: 'Santiago', url: 'https://tienda.bodegalucho.cl', country: 'CL', consumerKey: 'ck_ejemplo0cl', consumerSecret: 'cs_ejemplo0cl' },
    { name: 'Colombia online', url: 'https://tienda.bodegalucho.co', country: 'CO', consumerKey: 'ck_ejemplo0co', consumerSecret: 'cs_ejemplo0co' },
  ],
});
