import { defineResource } from '../define-resource.js';
import { zCountry, zText, zUrl } from '../fields.js';

/**
 * woocommerces (SPEC §7): the company's WooCommerce stores, one per country at most in
 * practice. Not shown in the spec: a name (unique in the company), the store URL, its
 * country and the REST API keys (consumerKey `ck_…`, consumerSecret `cs_…`): required on
 * create, write-only (responses carry `consumerKeySet`, `consumerSecretSet`). Decided for the
 * sync (decision 0034): one store per country in a company (the country names the store in the
 * product calls: crossover, copies), and the secret the store signs its webhooks with
 * (`webhookSecret`, write-only, optional: without it the store's webhooks are refused). A store
 * whose host ends in `.sandbox.test` is the built-in sandbox (no internet, demo data).
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
    webhookSecret: zText(200).optional(),
  },
  writeOnly: ['consumerKey', 'consumerSecret', 'webhookSecret'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'url'],
  sortable: ['name'],
  unique: ['name', 'country'],
  examples: [
    { name: 'Lima principal', url: 'https://pe.tienda.sandbox.test', country: 'PE', consumerKey: 'ck_sandbox0pe', consumerSecret: 'cs_sandbox0pe', webhookSecret: 'sandbox-webhook-pe' },
    { name: 'Santiago', url: 'https://cl.tienda.sandbox.test', country: 'CL', consumerKey: 'ck_sandbox0cl', consumerSecret: 'cs_sandbox0cl', webhookSecret: 'sandbox-webhook-cl' },
    { name: 'Colombia online', url: 'https://tienda.bodegalucho.co', country: 'CO', consumerKey: 'ck_ejemplo0co', consumerSecret: 'cs_ejemplo0co' },
  ],
});
