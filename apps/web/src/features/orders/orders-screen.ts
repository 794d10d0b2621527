import { orderSourceLabels, orderStatusLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { InstantCell } from '../../components/crud/instant-cell';
import { OrderCodeCell } from './order-cells';
import { OrderStatusChip } from './order-status-chip';

/**
 * /ordenes (SPEC §2, §7 Orders): the company's catalogue orders, newest activity first
 * (updatedAt desc). features/orders/orders-page adds the filters and the detail, where an
 * order moves and an admin deletes it (a test or spam order; not from the list, where a
 * trash can beside every order invites a mistake). On a phone: the order (code and
 * customer), its status and its total.
 */
export const screen = defineScreen({
  resource: resources.orders,
  title: 'Órdenes',
  subtitle: 'Pedidos del catálogo digital y del catálogo de WhatsApp',
  newLabel: 'Nueva orden',
  editLabel: 'Ver orden',
  emptyMessage: 'Aún no hay órdenes',
  noResultsMessage: 'Ninguna orden coincide con la búsqueda',
  columns: [
    { field: 'code', label: 'Orden', hideOnMobile: false, render: (row) => createElement(OrderCodeCell, { row }) },
    { field: 'customerName', hideOnMobile: true },
    { field: 'status', label: 'Estado', hideOnMobile: false, render: (row) => createElement(OrderStatusChip, { status: String(row.status) }) },
    { field: 'total', label: 'Total', hideOnMobile: false },
    { field: 'source', label: 'Origen', hideOnMobile: true },
    { field: 'createdAt', label: 'Creada', hideOnMobile: true, render: (row) => createElement(InstantCell, { value: row.createdAt }) },
    { field: 'updatedAt', label: 'Actualizada', hideOnMobile: true, render: (row) => createElement(InstantCell, { value: row.updatedAt }) },
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
  delete: false,
  displayField: 'code',
});
