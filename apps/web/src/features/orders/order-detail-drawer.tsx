import { type OrderItem, orderSourceLabels, resources, shippingMethodLabels } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatInstant } from '../../components/crud/cell-value';
import { HistoryLink } from '../../components/crud/history-link';
import type { ResourceRecord } from '../../components/crud/types';
import { useResourceRecord } from '../../components/crud/use-resource';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { formatMoney, type Money, useCompanyMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { useDeleteOrder } from './api';
import { OrderStatusActions } from './order-status-actions';
import { OrderStatusChip } from './order-status-chip';
import { DetailRow } from '../../components/detail-row';
import { imageSrc } from '../../lib/image-src';
import { InvoiceIfAny } from '../genial/invoice-cell';
import { OrderPayments } from '../payments/order-payments';

type Shippment = { method?: keyof typeof shippingMethodLabels; address?: string; city?: string; reference?: string; notes?: string };
type Customer = { name?: string; telefono?: string; email?: string; document?: string };

const Row = DetailRow;

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="overline" component="h3" color="text.secondary" sx={{ display: 'block', fontWeight: 700, lineHeight: 2, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A line's variant as the shop shows it: «Talla M · Azul marino». */
export function variantOf(item: Pick<OrderItem, 'size' | 'color'>): string {
  return [item.size ? `Talla ${item.size}` : '', item.color ?? ''].filter(Boolean).join(' · ');
}

/** The chat of the order's customer: the chat itself, else the lead's WhatsApp chat. */
function chatLinkOf(order: ResourceRecord): string | undefined {
  if (typeof order.chatId === 'string') return `/chat?${new URLSearchParams({ chatId: order.chatId })}`;
  if (typeof order.leadId === 'string') return `/chat?${new URLSearchParams({ leadId: order.leadId, platform: 'whatsapp' })}`;
  return undefined;
}

function Lines({ order, money }: { order: ResourceRecord; money: Money }) {
  const items = Array.isArray(order.items) ? (order.items as OrderItem[]) : [];
  const amount = (n: unknown) => (typeof n === 'number' ? formatMoney(n, money) : '—');
  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Productos de la orden">
        {items.map((item, i) => {
          const variant = variantOf(item);
          return (
            <Box
              component="li"
              // biome-ignore lint/suspicious/noArrayIndexKey: a line may repeat a SKU
              key={i}
              data-testid="order-line"
              sx={{ display: 'grid', gridTemplateColumns: '48px minmax(0, 1fr) auto', columnGap: 1.5, alignItems: 'start', py: 1, borderBottom: 1, borderColor: 'divider' }}
            >
              <Box
                sx={{ width: 48, height: 48, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.hover', '& img': { width: '100%', height: '100%', objectFit: 'cover', display: 'block' } }}
              >
                {item.imageUrl && <img src={imageSrc(item.imageUrl)} alt="" loading="lazy" width={48} height={48} />}
              </Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {item.name}
                </Typography>
                {variant && (
                  <Typography variant="body2" color="text.secondary">
                    {variant}
                  </Typography>
                )}
                <Typography variant="caption" color="text.secondary" component="div">
                  {item.quantity} × {amount(item.unitPrice)} · SKU {item.sku}
                </Typography>
              </Box>
              <Typography variant="body2" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
                {amount(item.total)}
              </Typography>
            </Box>
          );
        })}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr auto', rowGap: 0.5, columnGap: 2, pt: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          Subtotal
        </Typography>
        <Typography variant="body2" sx={{ textAlign: 'right' }}>
          {amount(order.subtotal)}
        </Typography>
        {typeof order.shippingCost === 'number' && (
          <>
            <Typography variant="body2" color="text.secondary">
              Envío
            </Typography>
            <Typography variant="body2" sx={{ textAlign: 'right' }}>
              {amount(order.shippingCost)}
            </Typography>
          </>
        )}
        <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600 }}>
          Total
        </Typography>
        <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600, textAlign: 'right' }} data-testid="order-total">
          {amount(order.total)}
        </Typography>
      </Box>
    </>
  );
}

/**
 * An order of /ordenes, opened from its row (the route /ordenes/{token} is the customer's own
 * page): code and status with the moves it allows, customer, delivery, lines with variants and
 * totals in the order's currency, source and dates, and the customer's chat.
 */
export function OrderDetailDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const titleId = useId();
  // a deleted order is not asked for again while the sheet closes
  const [deleted, setDeleted] = useState<string>();
  const record = useResourceRecord(resources.orders, id && id !== deleted ? id : undefined);
  const company = useCompanyMoney();
  const permissions = usePermissions();
  const confirm = useConfirm();
  const remove = useDeleteOrder();
  const order = record.data;
  const money: Money = { ...company, currency: typeof order?.currency === 'string' ? order.currency : company.currency };
  const customer = (order?.customer ?? {}) as Customer;
  const ship = (order?.shippment ?? undefined) as Shippment | undefined;
  const chat = order ? chatLinkOf(order) : undefined;
  const phone = typeof order?.telefono === 'string' ? `+${order.telefono}` : '';
  const source = typeof order?.source === 'string' ? (orderSourceLabels as Record<string, string>)[order.source] : undefined;

  // a test or spam order (decision 0032): deleting gives no stock back, cancelling does
  const deleteOrder = async () => {
    if (!order) return;
    const accepted = await confirm({
      message: `¿Seguro que deseas eliminar la orden ${String(order.code)}? No se puede deshacer y sus unidades no vuelven al stock: para devolverlas, cancélala primero.`,
      acceptLabel: 'Eliminar orden',
      destructive: true,
    });
    if (!accepted) return;
    setDeleted(order._id);
    onClose();
    try {
      await remove.mutateAsync(order._id);
    } catch {
      // the api client already showed why; it is still there to open
      setDeleted(undefined);
    }
  };

  return (
    <Drawer
      anchor="right"
      open={!!id}
      onClose={onClose}
      // over the app bar, as dialogs are
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: { sx: { width: { xs: '100%', sm: 540 }, display: 'flex', flexDirection: 'column' }, role: 'dialog', 'aria-labelledby': titleId } as object,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2.5, py: 2 }}>
        <Typography id={titleId} variant="h6" component="h2" noWrap sx={{ minWidth: 0 }}>
          {order ? `Orden ${String(order.code)}` : 'Orden'}
        </Typography>
        {order && <OrderStatusChip status={String(order.status)} />}
        <Box sx={{ flex: 1 }} />
        <IconButton aria-label="Cerrar" onClick={onClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ flex: 1, overflowY: 'auto', p: 2.5, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', alignContent: 'start', gap: 3 }}>
        {record.isLoading && <Skeleton variant="rounded" height={160} />}
        {record.isError && !order && <Alert severity="warning">La orden no existe o fue eliminada.</Alert>}
        {order && (
          <>
            <Section title="Cliente" id={`${titleId}-customer`}>
              <Row label="Nombre">{String(order.customerName ?? customer.name ?? '')}</Row>
              <Row label="Teléfono">{phone}</Row>
              {customer.email && <Row label="Correo">{customer.email}</Row>}
              {customer.document && <Row label="Documento">{customer.document}</Row>}
              {chat && permissions.can('chats', 'list') && (
                <Button component={RouterLink} to={chat} startIcon={<ForumOutlined />} variant="outlined" size="small" sx={{ mt: 1 }}>
                  Abrir chat del cliente
                </Button>
              )}
            </Section>
            <Section title="Entrega" id={`${titleId}-shipping`}>
              {ship?.method ? (
                <>
                  <Row label="Método">{shippingMethodLabels[ship.method] ?? ship.method}</Row>
                  {ship.method === 'delivery' && <Row label="Dirección">{[ship.address, ship.city].filter(Boolean).join(', ')}</Row>}
                  {ship.reference && <Row label="Referencia">{ship.reference}</Row>}
                  {ship.notes && <Row label="Nota">{ship.notes}</Row>}
                </>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Sin datos de entrega: se coordina en el chat.
                </Typography>
              )}
            </Section>
            <Section title="Productos" id={`${titleId}-items`}>
              <Lines order={order} money={money} />
            </Section>
            <Section title="Pagos" id={`${titleId}-payments`}>
              <OrderPayments order={{ _id: order._id, code: String(order.code), status: String(order.status), total: Number(order.total ?? 0) }} money={money} />
              {/* the electronic invoice Genial issues once it is paid (issue 30), when the company uses Genial */}
              <InvoiceIfAny kind="order" orderId={order._id} />
            </Section>
            <Section title="Detalles" id={`${titleId}-details`}>
              <Row label="Origen">{source ?? String(order.source ?? '')}</Row>
              <Row label="Creada">{formatInstant(order.createdAt)}</Row>
              <Row label="Actualizada">{formatInstant(order.updatedAt)}</Row>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
                <HistoryLink entity={resources.orders.key} entityId={order._id} variant="outlined" size="small" />
                {permissions.can('catalog', 'delete') && (
                  <Button color="error" size="small" startIcon={<DeleteOutlined />} onClick={deleteOrder} disabled={remove.isPending}>
                    Eliminar orden
                  </Button>
                )}
              </Box>
            </Section>
          </>
        )}
      </Box>
      {order && (
        <>
          <Divider />
          <Box sx={{ px: 2.5, py: 2 }} data-testid="order-actions">
            <OrderStatusActions order={{ _id: order._id, code: String(order.code), status: String(order.status) }} />
          </Box>
        </>
      )}
    </Drawer>
  );
}
