import { ecommerceOrderStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { InvoiceCell } from '../genial/invoice-cell';

export const screen = defineScreen({
  resource: resources['ecommerces-orders'],
  title: 'Órdenes de e-commerce',
  subtitle: 'Los pedidos de tus tiendas en línea',
  newLabel: 'Nueva orden',
  editLabel: 'Editar orden',
  emptyMessage: 'Aún no hay órdenes de e-commerce',
  noResultsMessage: 'Ninguna orden coincide con la búsqueda',
  columns: ['number', 'customerName', 'status', 'total', 'currency', { field: 'factura', label: 'Factura', hideOnMobile: false, render: (row) => createElement(InvoiceCell, { kind: 'ecommerce', orderId: row._id }) }, 'updatedAt'],
  displayField: 'number',
  form: ['number', 'status', 'customerName', 'customerEmail', 'customerPhone', 'total', 'currency', 'country', 'woocommerceId', 'items'],
  fields: {
    number: { label: 'Número' },
    status: { options: ecommerceOrderStatusLabels },
    customerName: { label: 'Cliente' },
    customerEmail: { label: 'Correo del cliente' },
    customerPhone: { label: 'Teléfono del cliente' },
    // an order is in the currency it names
    total: { label: 'Total', money: { currencyField: 'currency' } },
    currency: { label: 'Moneda' },
    woocommerceId: { label: 'Id en WooCommerce' },
    items: {
      label: 'Productos',
      fields: {
        ecommerceId: { label: 'Producto de e-commerce', refs: ['ecommerces'] },
        sku: { label: 'SKU' },
        name: { label: 'Producto' },
        variation_id: { label: 'Id de variación' },
        quantity: { label: 'Cantidad' },
        price: { label: 'Precio', money: { currencyField: 'currency' } },
      },
    },
  },
});
