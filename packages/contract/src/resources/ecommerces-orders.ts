import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zAmount, zCountry, zEmail, zEnum, zId, zInteger, zPhone, zText } from '../fields.js';

export const ecommerceOrderStatuses = ['created', 'processing', 'done', 'cancelled', 'refunded'] as const;
export type EcommerceOrderStatus = (typeof ecommerceOrderStatuses)[number];
/** SPEC §4: created is Creada, done is Completada; the others are not shown. */
export const ecommerceOrderStatusLabels: Record<EcommerceOrderStatus, string> = {
  created: 'Creada',
  processing: 'En proceso',
  done: 'Completada',
  cancelled: 'Cancelada',
  refunded: 'Reembolsada',
};

export const currencies = ['PEN', 'CLP', 'COP', 'EUR'] as const;
export type Currency = (typeof currencies)[number];

/** An order line (SPEC §3 "Order line"): the store product (ecommerceId), its SKU, the variation. */
export const orderLine = z
  .object({
    ecommerceId: zId().optional(),
    sku: zText(60).toUpperCase(),
    name: zText(200),
    variation_id: zInteger(0).optional(),
    quantity: zInteger(1),
    price: zAmount(),
  })
  .strict();

/**
 * ecommerces-orders (SPEC §7): orders of the online stores, synchronised from WooCommerce.
 * Not shown in the spec: the store's order number (unique in the company), a status, the
 * customer's name, email and phone, the total with its currency, the country of the store,
 * the order's id in that store (woocommerceId) and its lines (SPEC §3 "Order line";
 * ecommerceId is an ecommerce product's id). DELETE sends {woocommerceId, country}; the
 * record is deleted only when both match. Default sort updatedAt desc (SPEC §9, orders).
 */
export const ecommercesOrders = defineResource({
  key: 'ecommerces-orders',
  label: 'Orden de e-commerce',
  labelPlural: 'Órdenes de e-commerce',
  module: 'ecommerce',
  fields: {
    number: zText(40),
    status: zEnum(ecommerceOrderStatuses),
    customerName: zText(120),
    customerEmail: zEmail().optional(),
    customerPhone: zPhone().optional(),
    total: zAmount(),
    currency: zEnum(currencies),
    country: zCountry(),
    woocommerceId: zInteger(1),
    items: z.array(orderLine, { error: requiredOr(formMessages.invalid) }).min(1, 'Agrega al menos un producto').max(500, formMessages.tooLong),
  },
  // each line's store product must be one of the company's (decision 0021)
  refs: { 'items[].ecommerceId': 'ecommerces' },
  deleteBody: z.object({ woocommerceId: zInteger(1), country: zCountry() }).strict(),
  defaultSort: { field: 'updatedAt', order: 'desc' },
  searchable: ['number', 'customerName', 'customerEmail', 'customerPhone'],
  sortable: ['number', 'total', 'status'],
  unique: ['number'],
  examples: [
    {
      number: 'WC-10231',
      status: 'created',
      customerName: 'María Fernández',
      customerEmail: 'maria.fernandez@gmail.com',
      customerPhone: '51987001122',
      total: 34.5,
      currency: 'PEN',
      country: 'PE',
      woocommerceId: 10231,
      items: [
        { sku: 'IK-1500', name: 'Inca Kola 1.5 L', quantity: 3, price: 7.5 },
        { sku: 'GL-EVAP-400', name: 'Leche Gloria evaporada 400 g', quantity: 3, price: 4 },
      ],
    },
    {
      number: 'WC-10318',
      status: 'done',
      customerName: 'Luis Paredes',
      customerPhone: '51955443322',
      total: 20,
      currency: 'PEN',
      country: 'PE',
      woocommerceId: 10318,
      items: [{ sku: 'SUB-30', name: 'Sublime clásico 30 g', quantity: 10, price: 2 }],
    },
    {
      number: 'WC-11502',
      status: 'processing',
      customerName: 'Camila Soto',
      customerEmail: 'camila.soto@gmail.com',
      total: 12990,
      currency: 'CLP',
      country: 'CL',
      woocommerceId: 11502,
      items: [{ sku: 'ALF-12', name: 'Alfajores de manjar, caja x12', variation_id: 118, quantity: 1, price: 12990 }],
    },
  ],
});
