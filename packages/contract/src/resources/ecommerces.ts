import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zAmount, zCountry, zEnum, zInteger, zOptionalText, zRefIds, zText, zUrl } from '../fields.js';

export const ecommerceProductStatuses = ['publish', 'draft', 'private'] as const;
export type EcommerceProductStatus = (typeof ecommerceProductStatuses)[number];
export const ecommerceProductStatusLabels: Record<EcommerceProductStatus, string> = {
  publish: 'Publicado',
  draft: 'Borrador',
  private: 'Privado',
};

/** An attribute a product uses, with the values it offers (Talla: S, M, L). */
export const productAttribute = z
  .object({
    nombre: zText(60),
    values: z.array(zText(60), { error: formMessages.invalid }).min(1, 'Agrega al menos un valor').max(100, formMessages.tooLong),
  })
  .strict();

/**
 * ecommerces (SPEC §7 "Ecommerce products", screen /ecommerce/productos): the products of the
 * company's online stores. SPEC §3 says they have variations, sizes, categories and
 * attributes. Decided here: name, SKU (unique in the company), price and optional regular
 * price, stock, a WooCommerce-like status, the store's country and the product's id in that
 * store, categories and tags (the store's, ecommerces-categories and ecommerces-tags), sizes,
 * attributes with their values, an image and a description. Variations are their own list
 * (ecommerces-variations). Default sort createdAt desc (SPEC §7).
 * One product is one record per country store: the same SKU in Perú and Chile is two records
 * (compared side by side by /crossover/country/{country}), so the SKU is not unique in the
 * company; the store's own id (woocommerceId) names it in its store (decision 0034).
 */
export const ecommerces = defineResource({
  key: 'ecommerces',
  label: 'Producto de e-commerce',
  labelPlural: 'Productos de e-commerce',
  module: 'ecommerce',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(200),
    sku: zText(60)
      .toUpperCase()
      .regex(/^[A-Z0-9._-]+$/, 'Solo letras, números, puntos y guiones'),
    price: zAmount(),
    regularPrice: zAmount().optional(),
    stock: zInteger(0),
    status: zEnum(ecommerceProductStatuses),
    country: zCountry(),
    woocommerceId: zInteger(1).optional(),
    categoryIds: zRefIds(),
    tagIds: zRefIds(),
    sizes: z.array(zText(20), { error: formMessages.invalid }).max(50, formMessages.tooLong).optional(),
    attributes: z.array(productAttribute, { error: formMessages.invalid }).max(20, formMessages.tooLong).optional(),
    imageUrl: zUrl().optional(),
    description: zOptionalText(4000).optional(),
  },
  refs: { categoryIds: 'ecommerces-categories', tagIds: 'ecommerces-tags' },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'sku', 'description'],
  sortable: ['name', 'sku', 'price', 'stock', 'status'],
  filterable: ['country', 'status'],
  examples: [
    {
      name: 'Polo piqué algodón pima',
      sku: 'POLO-PIMA',
      price: 59.9,
      regularPrice: 79.9,
      stock: 84,
      status: 'publish',
      country: 'PE',
      woocommerceId: 2201,
      sizes: ['S', 'M', 'L', 'XL'],
      attributes: [
        { nombre: 'Talla', values: ['S', 'M', 'L', 'XL'] },
        { nombre: 'Color', values: ['Blanco', 'Azul marino'] },
      ],
      imageUrl: 'https://cdn.mostrador.app/ecommerce/polo-pima.jpg',
      description: 'Polo de algodón pima peruano, cuello camisero',
    },
    { name: 'Chompa de alpaca', sku: 'CHOMPA-ALP', price: 189, stock: 25, status: 'publish', country: 'PE', woocommerceId: 2202, sizes: ['M', 'L'] },
    { name: 'Zapatillas urbanas', sku: 'ZAP-URB', price: 249, stock: 0, status: 'draft', country: 'PE', description: 'Temporada de verano' },
  ],
});
