import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zAmount, zInteger, zOptionalText, zRefId, zText, zUrl } from '../fields.js';

/** A SKU: upper-cased letters, digits, dots and dashes. */
export const zSku = () =>
  zText(60)
    .toUpperCase()
    .regex(/^[A-Z0-9._-]+$/, 'Solo letras, números, puntos y guiones');

/**
 * One variant of a product (a size, a colour, or both), sold and stocked on its own under its
 * own SKU; its price is the product's unless it has one.
 */
export const productVariant = z.object({
  sku: zSku(),
  size: zOptionalText(40).optional(),
  colorId: zRefId(),
  stock: zInteger(0),
  price: zAmount().optional(),
});
export type ProductVariant = z.infer<typeof productVariant>;

/**
 * products (SPEC §7): the catalogue's products (/productos), distinct from an online store's
 * products (ecommerce module). Not shown in the spec: a product has a name, a SKU (upper-cased,
 * unique in the company), a price in the company's currency, the units in stock, optionally
 * a description and an image URL, and its brand, category and colour. Products sold in sizes or
 * colours list them as `variants`, each with its SKU and stock (then the product's own stock is
 * not sold: decision 0031).
 */
export const products = defineResource({
  key: 'products',
  label: 'Producto',
  labelPlural: 'Productos',
  module: 'catalog',
  fields: {
    name: zText(200),
    sku: zSku(),
    price: zAmount(),
    stock: zInteger(0),
    description: zOptionalText(2000).optional(),
    imageUrl: zUrl().optional(),
    brandId: zRefId(),
    categoryId: zRefId(),
    colorId: zRefId(),
    variants: z.array(productVariant, { error: formMessages.invalid }).max(100, formMessages.tooLong).optional(),
  },
  refs: { brandId: 'brands', categoryId: 'categories', colorId: 'colors', 'variants[].colorId': 'colors' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'sku', 'description'],
  sortable: ['name', 'sku', 'price', 'stock'],
  unique: ['sku'],
  examples: [
    {
      name: 'Inca Kola 1.5 L',
      sku: 'ik-1500',
      price: 7.5,
      stock: 120,
      description: 'Gaseosa sabor original, botella de 1.5 litros',
      imageUrl: 'https://cdn.mostrador.app/productos/inca-kola-1500.png',
    },
    { name: 'Leche Gloria evaporada 400 g', sku: 'GL-EVAP-400', price: 4.2, stock: 300, description: 'Lata azul' },
    { name: 'Sublime clásico 30 g', sku: 'SUB-30', price: 2, stock: 500 },
  ],
});
