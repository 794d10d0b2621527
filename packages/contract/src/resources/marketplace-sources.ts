import { defineResource } from '../define-resource.js';
import { zCountry, zEnum, zOptionalText, zText } from '../fields.js';

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
 * marketplace-sources (SPEC §7): the marketplace accounts whose products and orders are
 * synchronised (/marketplaces/fuentes). Not shown in the spec: a name (unique in the
 * company), the marketplace, the country of the account, the seller id there and the API key
 * (write-only: responses carry `apiKeySet`).
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
    apiKey: zText(500).optional(),
  },
  writeOnly: ['apiKey'],
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'sellerId'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Falabella Perú', platform: 'falabella', country: 'PE', sellerId: 'SC4F2A1', apiKey: 'ejemplo-api-key-falabella' },
    { name: 'Mercado Libre Chile', platform: 'mercadolibre', country: 'CL', sellerId: '1234567890' },
    { name: 'Ripley Perú', platform: 'ripley', country: 'PE', sellerId: 'RPL-2231' },
  ],
});
