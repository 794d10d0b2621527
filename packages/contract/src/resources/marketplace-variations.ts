import { defineResource } from '../define-resource.js';
import { zAmount, zCountry, zEnum, zInteger, zOptionalText, zRefId, zText } from '../fields.js';
import { marketplaceListingStatuses, zMarketplaceSku } from './marketplace-products.js';

/**
 * Whether the marketplace has a variation's price and stock as they are here (decision 0035):
 * synced, changed here and not sent yet (pending), or refused by the marketplace the last time
 * it was sent (failed, with the marketplace's reason in syncMessage).
 */
export const marketplaceSyncStatuses = ['synced', 'pending', 'failed'] as const;
export type MarketplaceSyncStatus = (typeof marketplaceSyncStatuses)[number];
export const marketplaceSyncStatusLabels: Record<MarketplaceSyncStatus, string> = {
  synced: 'Sincronizada',
  pending: 'Cambios sin enviar',
  failed: 'Rechazada',
};

/**
 * marketplace-variations (screen /marketplaces/productos-variaciones; SPEC §7 reads them at
 * GET /marketplace-products/variations and GET /marketplace-products/{id}/variations): each
 * sellable SKU of a marketplace account (Seller Center's SellerSku), the unit whose price and
 * stock are sent. Not shown in the spec, decided here (decision 0035): the product (productId),
 * the account (sourceId) and its country, the SKU and the marketplace's own (shopSku), the
 * name and what makes it a variation (Talla M, Azul), the price, the offer price the
 * marketplace shows (read-only here), the stock, the status at the marketplace and whether the
 * marketplace has our price and stock (syncStatus, syncMessage). Listed and read; price and stock
 * change by PATCH /marketplace-products/variations/{id} and the bulk update (/marketplaces/lote).
 */
export const marketplaceVariations = defineResource({
  key: 'marketplace-variations',
  label: 'Variación de marketplace',
  labelPlural: 'Variaciones de marketplace',
  module: 'marketplace',
  operations: ['list'],
  fields: {
    sellerSku: zMarketplaceSku(),
    productId: zRefId(),
    sourceId: zRefId(),
    shopSku: zOptionalText(80).optional(),
    name: zText(200),
    variation: zOptionalText(120).optional(),
    price: zAmount(),
    salePrice: zAmount().optional(),
    stock: zInteger(0),
    status: zEnum(marketplaceListingStatuses),
    country: zCountry(),
    syncStatus: zEnum(marketplaceSyncStatuses),
    syncMessage: zOptionalText(500).optional(),
  },
  refs: { productId: 'marketplace-products', sourceId: 'marketplace-sources' },
  defaultSort: { field: 'sellerSku', order: 'asc' },
  searchable: ['sellerSku', 'name', 'shopSku'],
  sortable: ['sellerSku', 'name', 'price', 'stock', 'status', 'syncStatus'],
  filterable: ['productId', 'sourceId', 'country', 'status', 'syncStatus'],
  examples: [
    { sellerSku: 'CASACA-IMP-M', shopSku: 'FA1180097CL', name: 'Casaca impermeable M', variation: 'M', price: 54990, stock: 8, status: 'active', country: 'CL', syncStatus: 'synced' },
    { sellerSku: 'CHOMPA-ALP-GRIS-M', shopSku: 'FA2231145PE', name: 'Chompa de alpaca Gris M', variation: 'Gris · M', price: 189, salePrice: 169, stock: 12, status: 'active', country: 'PE', syncStatus: 'pending' },
    { sellerSku: 'POLO-PIMA-BLANCO-M', name: 'Polo piqué algodón pima Blanco M', variation: 'Blanco · M', price: 19990, stock: 0, status: 'inactive', country: 'CL', syncStatus: 'failed', syncMessage: 'El precio debe ser un número positivo' },
  ],
});
