import { defineResource } from '../define-resource.js';
import { zAmount, zInteger, zOptionalText, zRefId, zText, zUrl } from '../fields.js';

/**
 * products (SPEC §7): the catalogue's products (/productos), distinct from an online store's
 * products (ecommerce module). Not shown in the spec: a product has a name, a SKU (upper-cased,
 * unique in the company), a price in the company's currency, the units in stock, optionally
 * a description and an image URL, and its brand, category and colour.
 */
export const products = defineResource({
  key: 'products',
  label: 'Producto',
  labelPlural: 'Productos',
  module: 'catalog',
  fields: {
    name: zText(200),
    sku: zText(60)
      .toUpperCase()
      .regex(/^[A-Z0-9._-]+$/, 'Solo letras, números, puntos y guiones'),
    price: zAmount(),
    stock: zInteger(0),
    description: zOptionalText(2000).optional(),
    imageUrl: zUrl().optional(),
    brandId: zRefId(),
    categoryId: zRefId(),
    colorId: zRefId(),
  },
  refs: { brandId: 'brands', categoryId: 'categories', colorId: 'colors' },
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
