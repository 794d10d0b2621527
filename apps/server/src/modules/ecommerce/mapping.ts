import { createHash } from 'node:crypto';
import { type EcommerceOrderStatus, ecommerceProductStatuses } from '@mostrador/contract';

type EcommerceProductStatus = (typeof ecommerceProductStatuses)[number];
import type { WooCustomer, WooOrder, WooProduct, WooVariation } from '../../integrations/woocommerce/types.js';

/**
 * The one form both sides of a store item are compared in (decision 0034). A store product and
 * our record are "the same" when their canonical forms hash alike: a pull writes nothing then,
 * and a push sends nothing. Every field we keep of a product is in it; nothing else is.
 */
export interface CanonicalProduct {
  name: string;
  sku: string;
  status: EcommerceProductStatus;
  description: string;
  price: number;
  regularPrice?: number;
  stock: number;
  categories: number[];
  tags: number[];
  image?: string;
  attributes: Array<{ nombre: string; values: string[] }>;
}

export interface CanonicalVariation {
  sku: string;
  price: number;
  stock: number;
  attributes: Array<{ nombre: string; value: string }>;
}

/** JSON with object keys sorted at every depth (jsonb gives them back in its own order). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableJson(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const hashOf = (value: unknown) => createHash('sha1').update(stableJson(value)).digest('base64url');

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v ?? ''));
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : 0;
};
const int = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.min(Math.trunc(n), 2_147_483_647) : 0;
};
const text = (v: unknown, max: number) =>
  String(v ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL refuses
    .replace(/\u0000/g, '')
    .trim()
    .slice(0, max);

/** A store SKU as our records keep it: upper case, only letters, digits, dots and dashes; empty → WC-{id}. */
export function skuOf(raw: string | undefined, id: number): string {
  const cleaned = text(raw, 60)
    .toUpperCase()
    .replace(/[^A-Z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned || `WC-${id}`;
}

const statusOf = (s: string | undefined): EcommerceProductStatus =>
  (ecommerceProductStatuses as readonly string[]).includes(s ?? '') ? (s as EcommerceProductStatus) : 'draft';

/** Effective price and the regular one when it is higher (a sale). */
function prices(regular: unknown, sale: unknown, price: unknown) {
  const r = num(regular);
  const s = String(sale ?? '') === '' ? undefined : num(sale);
  const effective = s !== undefined ? s : String(regular ?? '') !== '' ? r : num(price);
  return { price: effective, regularPrice: s !== undefined && r > effective ? r : undefined };
}

const attributesOf = (p: Pick<WooProduct, 'attributes'>) =>
  (p.attributes ?? [])
    .map((a) => ({ nombre: text(a.name, 60), values: (a.options ?? []).map((o) => text(o, 60)).filter(Boolean).slice(0, 100) }))
    .filter((a) => a.nombre && a.values.length)
    .slice(0, 20);

const validUrl = (src: string | undefined) => {
  if (!src || src.length > 500) return undefined;
  try {
    const u = new URL(src);
    return u.protocol === 'https:' || u.protocol === 'http:' ? src : undefined;
  } catch {
    return undefined;
  }
};

export function canonicalRemoteProduct(p: WooProduct): CanonicalProduct {
  const { price, regularPrice } = prices(p.regular_price, p.sale_price, p.price);
  return {
    name: text(p.name, 200),
    sku: skuOf(p.sku, p.id),
    status: statusOf(p.status),
    description: text(p.description, 4000),
    price,
    regularPrice,
    stock: int(p.stock_quantity),
    categories: (p.categories ?? []).map((c) => c.id).sort((a, b) => a - b),
    tags: (p.tags ?? []).map((t) => t.id).sort((a, b) => a - b),
    image: validUrl(p.images?.[0]?.src),
    attributes: attributesOf(p),
  };
}

/** A product record as stored (the ecommerces table's row). */
export interface ProductRow {
  id: string;
  name: string;
  sku: string;
  price: number;
  regularPrice: number | null;
  stock: number;
  status: string;
  country: string;
  woocommerceId: number | null;
  categoryIds: string[] | null;
  tagIds: string[] | null;
  sizes: string[] | null;
  attributes: Array<{ nombre: string; values: string[] }> | null;
  imageUrl: string | null;
  description: string | null;
}

export interface VariationRow {
  id: string;
  ecommerceId: string | null;
  sku: string;
  price: number;
  stock: number;
  attributes: Array<{ nombre: string; value: string }>;
  woocommerceId: number | null;
}

/** Our record in the canonical form; categories and tags as the store's ids (`externalOf`). */
export function canonicalLocalProduct(r: ProductRow, externalOf: (localId: string) => number | undefined): CanonicalProduct {
  const price = num(r.price);
  const regular = r.regularPrice != null ? num(r.regularPrice) : undefined;
  const ids = (list: string[] | null) =>
    (list ?? [])
      .map(externalOf)
      .filter((x): x is number => x !== undefined)
      .sort((a, b) => a - b);
  return {
    name: text(r.name, 200),
    sku: r.sku,
    status: statusOf(r.status),
    description: text(r.description, 4000),
    price,
    regularPrice: regular !== undefined && regular > price ? regular : undefined,
    stock: int(r.stock),
    categories: ids(r.categoryIds),
    tags: ids(r.tagIds),
    image: validUrl(r.imageUrl ?? undefined),
    attributes: (r.attributes ?? []).map((a) => ({ nombre: a.nombre, values: [...a.values] })),
  };
}

/** The fields of our record a store product sets (categories and tags as our ids: `localOf`). */
export function productFieldsOf(p: WooProduct, country: string, localOf: (kind: 'category' | 'tag', remoteId: number) => string | undefined) {
  const c = canonicalRemoteProduct(p);
  const talla = c.attributes.find((a) => /^(talla|tallas|size|sizes|pa_talla|pa_size)$/i.test(a.nombre));
  return {
    name: c.name || `Producto ${p.id}`,
    sku: c.sku,
    price: c.price,
    regularPrice: c.regularPrice ?? null,
    stock: c.stock,
    status: c.status,
    country,
    woocommerceId: p.id,
    categoryIds: c.categories.map((id) => localOf('category', id)).filter((x): x is string => !!x),
    tagIds: c.tags.map((id) => localOf('tag', id)).filter((x): x is string => !!x),
    sizes: talla ? talla.values.map((v) => v.slice(0, 20)).slice(0, 50) : null,
    attributes: c.attributes,
    imageUrl: c.image ?? null,
    description: c.description || null,
  };
}

/** What a push sends for a product (WooCommerce's product body). */
export function productPayloadOf(c: CanonicalProduct, hasVariations: boolean): Partial<WooProduct> {
  const onSale = c.regularPrice !== undefined && c.regularPrice > c.price;
  return {
    name: c.name,
    sku: c.sku,
    status: c.status,
    type: hasVariations ? 'variable' : 'simple',
    description: c.description,
    regular_price: String(onSale ? c.regularPrice : c.price),
    sale_price: onSale ? String(c.price) : '',
    manage_stock: true,
    stock_quantity: c.stock,
    categories: c.categories.map((id) => ({ id })),
    tags: c.tags.map((id) => ({ id })),
    images: c.image ? [{ src: c.image }] : [],
    attributes: c.attributes.map((a, i) => ({ name: a.nombre, position: i, visible: true, variation: hasVariations, options: a.values })),
  };
}

export function canonicalRemoteVariation(v: WooVariation): CanonicalVariation {
  return {
    sku: skuOf(v.sku, v.id),
    price: prices(v.regular_price, v.sale_price, v.price).price,
    stock: int(v.stock_quantity),
    attributes: (v.attributes ?? [])
      .map((a) => ({ nombre: text(a.name, 60), value: text(a.option, 60) }))
      .filter((a) => a.nombre && a.value)
      .slice(0, 10),
  };
}

export const canonicalLocalVariation = (r: VariationRow): CanonicalVariation => ({
  sku: r.sku,
  price: num(r.price),
  stock: int(r.stock),
  attributes: (r.attributes ?? []).map((a) => ({ nombre: a.nombre, value: a.value })),
});

export const variationPayloadOf = (c: CanonicalVariation): Partial<WooVariation> => ({
  sku: c.sku,
  regular_price: String(c.price),
  sale_price: '',
  manage_stock: true,
  stock_quantity: c.stock,
  attributes: c.attributes.map((a) => ({ name: a.nombre, option: a.value })),
});

const orderStatuses: Record<string, EcommerceOrderStatus> = {
  pending: 'created',
  'on-hold': 'created',
  processing: 'processing',
  completed: 'done',
  cancelled: 'cancelled',
  failed: 'cancelled',
  refunded: 'refunded',
};

/** A phone as our records keep it: digits with the country's code (or nothing when it is not one). */
export function phoneOf(raw: string | undefined, country: string): string | undefined {
  let digits = String(raw ?? '').replace(/\D/g, '');
  const codes: Record<string, string> = { PE: '51', CL: '56', CO: '57', ES: '34' };
  const code = codes[country];
  if (digits && code && digits.length <= 9 && !digits.startsWith(code)) digits = code + digits;
  return /^\d{8,15}$/.test(digits) ? digits : undefined;
}

const emailOf = (raw: string | undefined) => {
  const e = String(raw ?? '').trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) && e.length <= 254 ? e : undefined;
};

/** An order's fields; lines name our products and variations (`productOf`). */
export function orderFieldsOf(o: WooOrder, country: string, productOf: (remoteId: number) => string | undefined) {
  const b = o.billing ?? {};
  const name = text(`${b.first_name ?? ''} ${b.last_name ?? ''}`, 120) || emailOf(b.email) || `Cliente ${o.id}`;
  return {
    number: text(`${country}-${o.number || o.id}`, 40),
    status: orderStatuses[o.status] ?? 'created',
    customerName: name,
    customerEmail: emailOf(b.email),
    customerPhone: phoneOf(b.phone, country),
    total: num(o.total),
    currency: o.currency,
    country,
    woocommerceId: o.id,
    items: (o.line_items ?? []).map((l) => ({
      ecommerceId: productOf(l.product_id),
      sku: skuOf(l.sku, l.variation_id || l.product_id),
      name: text(l.name, 200) || `Producto ${l.product_id}`,
      ...(l.variation_id ? { variation_id: l.variation_id } : {}),
      quantity: Math.max(1, int(l.quantity)),
      price: num(l.price),
    })),
  };
}

/**
 * The customer's document of a WooCommerce order, for its invoice (decision 0037). WooCommerce has
 * no such field: the Latin-American checkout plugins add one as order meta (`_billing_ruc`,
 * `billing_rut`, `_billing_nit`, `_billing_dni`, `_billing_documento`, `_billing_vat`…). The first
 * such key with a value wins; none, undefined (a boleta without document).
 */
export function taxIdOf(o: WooOrder): string | undefined {
  for (const m of o.meta_data ?? []) {
    if (typeof m?.key !== 'string' || !/^_?billing_(ruc|rut|nit|dni|cc|cedula|documento|document|doc|tax_id|vat|nif)(_number|_numero)?$/i.test(m.key)) continue;
    const value = typeof m.value === 'string' || typeof m.value === 'number' ? String(m.value).trim() : '';
    if (value) return value.slice(0, 20);
  }
  return undefined;
}

/** WooCommerce orders that are invoiced: paid ones (processing, completed). */
export const invoicedWooStatuses = new Set(['processing', 'completed']);

export function contactFieldsOf(c: WooCustomer, country: string) {
  const email = emailOf(c.email ?? c.billing?.email);
  return {
    name: text(`${c.first_name ?? ''} ${c.last_name ?? ''}`, 120) || email || `Cliente ${c.id}`,
    email,
    telefono: phoneOf(c.billing?.phone, country),
    country,
    woocommerceId: c.id,
  };
}

/** A record's fields in a comparable form (nulls and absent fields alike), for "did it change?". */
export const comparable = (fields: Record<string, unknown>) =>
  hashOf(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === undefined ? null : v])));
