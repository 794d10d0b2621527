import { defineResource } from '../define-resource.js';
import { zAmount, zCountry, zEnum, zInteger, zOptionalText, zRefId, zText, zUrl } from '../fields.js';

/** A listing's status at the marketplace (Seller Center: active, inactive, deleted). */
export const marketplaceListingStatuses = ['active', 'inactive', 'deleted'] as const;
export type MarketplaceListingStatus = (typeof marketplaceListingStatuses)[number];
export const marketplaceListingStatusLabels: Record<MarketplaceListingStatus, string> = {
  active: 'Activo',
  inactive: 'Inactivo',
  deleted: 'Eliminado',
};

/** A marketplace SKU (Seller Center's SellerSku): kept as the marketplace spells it (it is case-sensitive there). */
export const zMarketplaceSku = () => zText(80).regex(/^[^\s<>&"]+$/, 'Sin espacios ni los caracteres < > & "');

/**
 * marketplace-products (SPEC §7 "marketplace-products: GET list", screen /marketplaces/productos):
 * the products a marketplace account sells, as its sync reads them (decision 0035). Seller
 * Center lists sellable SKUs; SKUs sharing a ParentSku are the variations of one product, and a
 * SKU without a parent is a product of one variation. Not shown in the spec, decided here: the
 * product's name, its parent SKU, brand, category, picture and page at the marketplace, a status,
 * the account (sourceId) and its country, and what its variations add up to (how many, the stock
 * and the lowest price a customer pays). Read-only here: prices and stock change per variation
 * (PATCH /marketplace-products/variations/{id}); everything else changes at the marketplace.
 */
export const marketplaceProducts = defineResource({
  key: 'marketplace-products',
  label: 'Producto de marketplace',
  labelPlural: 'Productos de marketplace',
  module: 'marketplace',
  operations: ['list'],
  fields: {
    name: zText(200),
    parentSku: zMarketplaceSku(),
    brand: zOptionalText(120).optional(),
    category: zOptionalText(120).optional(),
    imageUrl: zUrl().optional(),
    url: zUrl().optional(),
    status: zEnum(marketplaceListingStatuses),
    country: zCountry(),
    sourceId: zRefId(),
    variations: zInteger(0),
    stock: zInteger(0),
    price: zAmount(),
  },
  refs: { sourceId: 'marketplace-sources' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'parentSku', 'brand'],
  sortable: ['name', 'parentSku', 'price', 'stock', 'status'],
  filterable: ['sourceId', 'country', 'status'],
  examples: [
    { name: 'Casaca impermeable', parentSku: 'CASACA-IMP', brand: 'Andes Outdoor', category: 'Casacas', status: 'active', country: 'CL', variations: 2, stock: 14, price: 54990 },
    { name: 'Chompa de alpaca', parentSku: 'CHOMPA-ALP', brand: 'Tejidos del Sur', category: 'Chompas', status: 'active', country: 'PE', variations: 2, stock: 25, price: 189 },
    { name: 'Polo piqué algodón pima', parentSku: 'POLO-PIMA', brand: 'Pima Perú', category: 'Polos', status: 'inactive', country: 'CL', variations: 1, stock: 0, price: 19990 },
  ],
});
