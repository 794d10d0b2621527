import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zAmount, zEmail, zEnum, zInteger, zOptionalText, zRefId, zText } from '../fields.js';
import { orderSources, orderStatuses, shippingMethods } from '../order-labels.js';
import { currencies } from './ecommerces-orders.js';

/** One line of an order, as sold: what it was, at which price (the product may change later). */
export const orderItem = z.object({
  /** The product sold (absent when a WhatsApp order named a SKU the company does not have). */
  productId: zRefId(),
  sku: z.string(),
  name: z.string(),
  /** The variant's size and colour, when the line is a variant. */
  size: z.string().optional(),
  color: z.string().optional(),
  imageUrl: z.string().optional(),
  quantity: zInteger(1),
  unitPrice: zAmount(),
  total: zAmount(),
});
export type OrderItem = z.infer<typeof orderItem>;

/** The customer of an order (the spec's `customer`). */
export const orderCustomer = z.object({
  name: zText(120),
  /** Digits with the country code (normalised by the server from what the customer typed). */
  telefono: z.string().regex(/^\d{8,15}$/, formMessages.phone),
  email: zEmail().optional(),
  document: zOptionalText(20).optional(),
});

/** Where it goes (the spec's `shippment`, spelled as the spec spells it). */
export const orderShippment = z.object({
  method: zEnum(shippingMethods),
  address: zOptionalText(300).optional(),
  city: zOptionalText(120).optional(),
  reference: zOptionalText(300).optional(),
  notes: zOptionalText(500).optional(),
});

/**
 * orders (SPEC §3 Order placement, §7 Orders): orders of the company's own catalogue, placed
 * by customers on /catalogo-digital (POST /orders/place) or through WhatsApp's catalogue.
 * As a standard resource: list, get and delete (a test or spam order; deleting gives no stock
 * back, cancelling does); they are placed and moved through the orders module (modules/orders). Default sort updatedAt desc (SPEC §9); filters by status and date.
 */
export const orders = defineResource({
  key: 'orders',
  label: 'Orden',
  labelPlural: 'Órdenes',
  module: 'catalog',
  operations: ['list', 'get', 'delete'],
  fields: {
    /** A short reference the customer and the shop say aloud (`P-7F3A2C`). */
    code: zText(20),
    status: zEnum(orderStatuses),
    source: zEnum(orderSources),
    catalogId: zRefId(),
    customerName: zText(120),
    telefono: z.string().regex(/^\d{8,15}$/, formMessages.phone),
    customer: orderCustomer,
    shippment: orderShippment.optional(),
    items: z.array(orderItem).min(1, formMessages.required).max(200, formMessages.tooLong),
    subtotal: zAmount(),
    shippingCost: zAmount().optional(),
    total: zAmount(),
    currency: zEnum(currencies),
    leadId: zRefId(),
    chatId: zRefId(),
  },
  refs: { catalogId: 'catalogs', 'items[].productId': 'products', leadId: 'leads', chatId: 'chats' },
  defaultSort: { field: 'updatedAt', order: 'desc' },
  searchable: ['code', 'customerName', 'telefono'],
  sortable: ['code', 'total'],
  filterable: ['status', 'createdAt'],
  unique: ['code'],
  examples: [
    {
      code: 'P-1A2B3C',
      status: 'created',
      source: 'catalogo',
      customerName: 'María Quispe',
      telefono: '51987654321',
      customer: { name: 'María Quispe', telefono: '51987654321', email: 'maria.quispe@gmail.com' },
      shippment: { method: 'delivery', address: 'Av. Primavera 1234, dpto. 301', city: 'Surco' },
      items: [{ sku: 'IK-1500', name: 'Inca Kola 1.5 L', quantity: 2, unitPrice: 7.5, total: 15 }],
      subtotal: 15,
      shippingCost: 8,
      total: 23,
      currency: 'PEN',
    },
    {
      code: 'P-4D5E6F',
      status: 'paid',
      source: 'whatsapp',
      customerName: 'José Flores',
      telefono: '51912345678',
      customer: { name: 'José Flores', telefono: '51912345678' },
      shippment: { method: 'pickup' },
      items: [{ sku: 'SUB-30', name: 'Sublime clásico 30 g', quantity: 10, unitPrice: 2, total: 20 }],
      subtotal: 20,
      total: 20,
      currency: 'PEN',
    },
    {
      code: 'P-7A8B9C',
      status: 'done',
      source: 'catalogo',
      customerName: 'Lucía Sánchez',
      telefono: '51955544433',
      customer: { name: 'Lucía Sánchez', telefono: '51955544433' },
      shippment: { method: 'delivery', address: 'Jr. Junín 456', city: 'Lima' },
      items: [{ sku: 'GL-EVAP-400', name: 'Leche Gloria evaporada 400 g', quantity: 6, unitPrice: 4.2, total: 25.2 }],
      subtotal: 25.2,
      total: 25.2,
      currency: 'PEN',
    },
  ],
});
