import { marketplaceOrderStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { InvoiceCell } from '../genial/invoice-cell';

/** /marketplaces/ordenes: the marketplace accounts' orders, newest first (SPEC §7: createdAt, order 0). */
export const screen = defineScreen({
  resource: resources['marketplace-orders'],
  title: 'Órdenes de marketplace',
  subtitle: 'Los pedidos de tus cuentas en los marketplaces: artículos, factura y etiqueta de envío',
  newLabel: 'Nueva orden',
  editLabel: 'Editar orden',
  emptyMessage: 'Aún no hay órdenes de marketplace: sincroniza una fuente en /marketplaces/fuentes',
  noResultsMessage: 'Ninguna orden coincide con la búsqueda',
  columns: ['orderNumber', 'customerName', 'sourceId', 'status', 'total', { field: 'factura', label: 'Factura', render: (row) => createElement(InvoiceCell, { kind: 'marketplace', orderId: row._id }) }, 'createdAt'],
  displayField: 'orderNumber',
  create: false,
  edit: false,
  delete: false,
  fields: {
    orderNumber: { label: 'Orden' },
    customerName: { label: 'Cliente' },
    sourceId: { label: 'Fuente' },
    status: { options: marketplaceOrderStatusLabels },
    total: { label: 'Total', money: { currencyField: 'currency' } },
  },
});
