/**
 * WooCommerce REST API v3 shapes (`/wp-json/wc/v3`), the fields this product reads and writes.
 * Prices travel as strings ("59.90"), ids as integers; unknown fields are ignored.
 */
export interface WooRef {
  id: number;
  name?: string;
  slug?: string;
}

export interface WooImage {
  id?: number;
  src: string;
  name?: string;
  alt?: string;
}

export interface WooProductAttribute {
  id?: number;
  name: string;
  position?: number;
  visible?: boolean;
  variation?: boolean;
  options: string[];
}

export interface WooProduct {
  id: number;
  name: string;
  slug?: string;
  type?: 'simple' | 'variable' | 'grouped' | 'external';
  /** 'trash': deleted without force (WooCommerce keeps it, recoverable; its lists no longer show it). */
  status: 'publish' | 'draft' | 'private' | 'pending' | 'trash';
  description?: string;
  sku: string;
  price?: string;
  regular_price: string;
  sale_price: string;
  manage_stock?: boolean;
  stock_quantity: number | null;
  categories: WooRef[];
  tags: WooRef[];
  images: WooImage[];
  attributes: WooProductAttribute[];
  variations?: number[];
  date_modified_gmt?: string;
}

export interface WooVariation {
  id: number;
  sku: string;
  price?: string;
  regular_price: string;
  sale_price: string;
  manage_stock?: boolean;
  stock_quantity: number | null;
  attributes: Array<{ id?: number; name: string; option: string }>;
  image?: WooImage | null;
}

export interface WooCategory {
  id: number;
  name: string;
  slug: string;
  parent: number;
  count?: number;
}

export interface WooTag {
  id: number;
  name: string;
  slug: string;
}

export interface WooAttribute {
  id: number;
  name: string;
  slug?: string;
}

export interface WooTerm {
  id: number;
  name: string;
  slug?: string;
}

export interface WooAddress {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
}

export interface WooOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  total: string;
  billing: WooAddress;
  line_items: Array<{ id?: number; name: string; product_id: number; variation_id: number; quantity: number; sku: string; price: number | string }>;
  date_modified_gmt?: string;
  /** Custom fields: the checkout plugins of Perú, Chile and Colombia keep the customer's RUC / DNI, RUT or NIT here. */
  meta_data?: Array<{ id?: number; key: string; value: unknown }>;
}

export interface WooCustomer {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  billing?: WooAddress;
}

/** `POST …/batch`: at most 100 items in all. */
export interface WooBatch<T> {
  create?: Array<Partial<T>>;
  update?: Array<Partial<T> & { id: number }>;
  delete?: number[];
}

export interface WooBatchItemError {
  id?: number;
  error: { code: string; message: string; data?: { status?: number } };
}

export interface WooBatchResult<T> {
  create?: Array<T | WooBatchItemError>;
  update?: Array<T | WooBatchItemError>;
  delete?: Array<T | WooBatchItemError>;
}

export const isBatchError = (item: unknown): item is WooBatchItemError =>
  typeof item === 'object' && item !== null && 'error' in item && typeof (item as { error: unknown }).error === 'object';
