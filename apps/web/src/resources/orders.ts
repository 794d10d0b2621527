import { orderSourceLabels, orderStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../components/crud/types';
import { OrderStatusChip } from '../features/orders/order-status-chip';

/** /ordenes (SPEC §2, §7 Orders): the company's catalogue orders, newest activity first (updatedAt desc). */
export const screen = defineScreen({
  resource: resources.orders,
  title: 'Órdenes',
  subtitle: 'Pedidos del catálogo digital y del catálogo de WhatsApp',
  newLabel: 'Nueva orden',
  editLabel: 'Ver orden',
  emptyMessage: 'Aún no hay órdenes',
  noResultsMessage: 'Ninguna orden coincide con la búsqueda',
  columns: [
    'code',
    'customerName',
    { field: 'status', label: 'Estado', render: (row) => createElement(OrderStatusChip, { status: String(row.status) }) },
    { field: 'total', label: 'Total' },
    { field: 'source', label: 'Origen', hideOnMobile: true },
    { field: 'telefono', label: 'Teléfono', hideOnMobile: true },
    { field: 'updatedAt', label: 'Actualizada', hideOnMobile: true },
  ],
  fields: {
    code: { label: 'Código' },
    customerName: { label: 'Cliente' },
    status: { label: 'Estado', options: orderStatusLabels },
    source: { label: 'Origen', options: orderSourceLabels },
    total: { label: 'Total', money: { currencyField: 'currency' } },
  },
  create: false,
  edit: false,
  displayField: 'code',
});
