import { defineResource } from '../define-resource.js';
import { zCountry, zEmail, zEnum, zOptionalText, zText, zUrl } from '../fields.js';

export const marketplacePlatforms = ['mercadolibre', 'falabella', 'ripley', 'linio', 'amazon'] as const;
export type MarketplacePlatform = (typeof marketplacePlatforms)[number];
export const marketplacePlatformLabels: Record<MarketplacePlatform, string> = {
  mercadolibre: 'Mercado Libre',
  falabella: 'Falabella',
  ripley: 'Ripley',
  linio: 'Linio',
  amazon: 'Amazon',
};

/**
 * The API a source is reached through (decision 0035): the kind of its platform. Falabella and
 * Linio share the Seller Center API; the others have their own, not connected yet. Derived from
 * the platform, never stored, so the two cannot disagree.
 */
export const marketplaceKinds = ['seller-center', 'mercadolibre', 'mirakl', 'amazon'] as const;
export type MarketplaceKind = (typeof marketplaceKinds)[number];
export const marketplaceKindOf: Record<MarketplacePlatform, MarketplaceKind> = {
  falabella: 'seller-center',
  linio: 'seller-center',
  mercadolibre: 'mercadolibre',
  ripley: 'mirakl',
  amazon: 'amazon',
};
/** The kinds this product talks to today. */
export const connectedMarketplaceKinds: readonly MarketplaceKind[] = ['seller-center'];

/**
 * The Seller Center API's address per platform and country, used when a source leaves `apiUrl`
 * empty (decision 0035). Falabella serves its three countries from one host (the account says
 * which); Linio had one host per country.
 */
export const sellerCenterUrls: Partial<Record<MarketplacePlatform, Partial<Record<'PE' | 'CL' | 'CO', string>>>> = {
  falabella: { PE: 'https://sellercenter-api.falabella.com', CL: 'https://sellercenter-api.falabella.com', CO: 'https://sellercenter-api.falabella.com' },
  linio: { PE: 'https://sellercenter-api.linio.com.pe', CL: 'https://sellercenter-api.linio.cl', CO: 'https://sellercenter-api.linio.com.co' },
};

/**
 * marketplace-sources (SPEC §7): the marketplace accounts whose products and orders are
 * synchronised (/marketplaces/fuentes). Not shown in the spec: a name (unique in the
 * company), the marketplace, the country of the account, the seller id there, the API user
 * (Seller Center's UserID: the e-mail of a Seller Center user) and its API key (write-only,
 * sealed at rest: responses carry `apiKeySet`), and the API's address when it is not the
 * platform's own for that country (a staging server, the demo's sandbox). Decision 0035.
 * A source whose host ends in `.sandbox.test` is the built-in sandbox (no internet, demo data).
 */
export const marketplaceSources = defineResource({
  key: 'marketplace-sources',
  label: 'Fuente de marketplace',
  labelPlural: 'Fuentes de marketplace',
  module: 'marketplace',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    platform: zEnum(marketplacePlatforms),
    country: zCountry(),
    sellerId: zOptionalText(80).optional(),
    apiUser: zEmail().optional(),
    apiKey: zText(500).optional(),
    apiUrl: zUrl().optional(),
  },
  writeOnly: ['apiKey'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'sellerId'],
  sortable: ['name'],
  filterable: ['platform', 'country'],
  unique: ['name'],
  examples: [
    {
      name: 'Falabella Chile',
      platform: 'falabella',
      country: 'CL',
      sellerId: 'SC8K2QX',
      apiUser: 'ventas.chile@demo.com',
      apiKey: 'sandbox0falabella0cl',
      apiUrl: 'https://cl.sellercenter.sandbox.test',
    },
    {
      name: 'Falabella Perú',
      platform: 'falabella',
      country: 'PE',
      sellerId: 'SC4F2A1',
      apiUser: 'ventas.peru@demo.com',
      apiKey: 'sandbox0falabella0pe',
      apiUrl: 'https://pe.sellercenter.sandbox.test',
    },
    { name: 'Mercado Libre Chile', platform: 'mercadolibre', country: 'CL', sellerId: '1234567890' },
  ],
});
