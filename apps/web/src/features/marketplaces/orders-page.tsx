import {
  type MarketplaceDocumentType,
  marketplaceDocumentTypeLabels,
  marketplaceOrderStatusLabels,
  type MarketplaceOrderStatus,
  resources,
} from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import Download from '@mui/icons-material/Download';
import LocalShipping from '@mui/icons-material/LocalShipping';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatInstant } from '../../components/crud/cell-value';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { useResourceRecord } from '../../components/crud/use-resource';
import { ApiError, NetworkError } from '../../lib/api-client';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { screen } from './marketplace-orders-screen';
import { InvoiceCell } from '../genial/invoice-cell';
import { downloadDocument, useMarketplaceRealtime, useOrderItems, useReadyToShip } from './api';
import { DetailRow } from '../../components/detail-row';

const ORDER_PARAM = 'orden';
const DOCUMENTS: MarketplaceDocumentType[] = ['invoice', 'shippingLabel'];

const Row = ({ label, children }: { label: string; children?: ReactNode }) => <DetailRow label={label} labelWidth={130}>{children}</DetailRow>;

/** An order's detail: the customer, its items with their own statuses, its documents, and readiness to ship. */
function OrderDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const order = useResourceRecord(resources['marketplace-orders'], id).data;
  const items = useOrderItems(id);
  const ready = useReadyToShip();
  const company = useCompanyMoney();
  const can = usePermissions().can('marketplace', 'update');
  const [documentError, setDocumentError] = useState<string>();
  const money = { ...company, currency: typeof order?.currency === 'string' ? order.currency : company.currency };
  const status = order?.status as MarketplaceOrderStatus | undefined;
  const download = async (type: MarketplaceDocumentType) => {
    setDocumentError(undefined);
    try {
      await downloadDocument(id ?? '', type, `${type}-${String(order?.orderNumber ?? '')}.pdf`);
    } catch (error) {
      setDocumentError(error instanceof ApiError ? error.messages[0] : error instanceof NetworkError ? 'No se pudo descargar: revisa tu conexión' : 'No se pudo descargar el documento');
    }
  };
  return (
    <Drawer anchor="right" open={!!id} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 460 }, p: 2 } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="h2" component="h2" sx={{ flex: 1, fontSize: '1.2rem' }}>
          Orden {String(order?.orderNumber ?? '')}
        </Typography>
        <IconButton aria-label="Cerrar" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      {!order ? (
        <Skeleton variant="rectangular" height={200} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box>
            {status && <Chip label={marketplaceOrderStatusLabels[status]} color={status === 'canceled' || status === 'failed' ? 'default' : 'primary'} size="small" sx={{ mb: 1 }} />}
            <Row label="Cliente">{String(order.customerName ?? '')}</Row>
            <Row label="Correo">{String(order.customerEmail ?? '')}</Row>
            <Row label="Teléfono">{String(order.customerPhone ?? '')}</Row>
            <Row label="Entrega">{[order.address, order.city, order.region].filter(Boolean).join(', ')}</Row>
            <Row label="Total">{typeof order.total === 'number' ? formatMoney(order.total, money) : ''}</Row>
            <Row label="Pago">{String(order.paymentMethod ?? '')}</Row>
            <Row label="Colocada">{formatInstant(order.createdAt)}</Row>
            <Row label="Despachar antes de">{formatInstant(order.promisedShippingAt)}</Row>
          </Box>
          <Divider />
          <Box>
            <Typography variant="subtitle2" component="h3">
              Artículos
            </Typography>
            {items.isLoading ? (
              <Skeleton height={60} />
            ) : items.isError ? (
              <Alert severity="warning">{items.error instanceof ApiError ? items.error.messages[0] : 'No se pudieron leer los artículos'}</Alert>
            ) : (
              <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Artículos de la orden">
                {(items.data?.payload ?? []).map((item) => (
                  <Box component="li" key={item._id} data-testid="marketplace-order-item" sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {item.name}
                      {item.variation ? ` · ${item.variation}` : ''}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {item.sellerSku} · {marketplaceOrderStatusLabels[item.status]} · {formatMoney(item.paidPrice, { ...money, currency: item.currency })}
                      {item.trackingCode ? ` · Seguimiento ${item.trackingCode}` : ''}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
          </Box>
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              Factura electrónica (Genial)
            </Typography>
            {id && <InvoiceCell kind="marketplace" orderId={id} compact={false} />}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {DOCUMENTS.map((type) => (
              <Button key={type} variant="outlined" size="small" startIcon={<Download />} onClick={() => void download(type)}>
                {marketplaceDocumentTypeLabels[type]}
              </Button>
            ))}
            {can && status === 'pending' && (
              <Button variant="contained" size="small" startIcon={<LocalShipping />} disabled={ready.isPending} onClick={() => ready.mutate(id ?? '', { onSuccess: () => void items.refetch() })}>
                Marcar lista para enviar
              </Button>
            )}
          </Box>
          {documentError && <Alert severity="warning">{documentError}</Alert>}
        </Box>
      )}
    </Drawer>
  );
}

/**
 * /marketplaces/ordenes: the marketplace orders newest first, by status, and an order's detail in
 * a side sheet (`?orden={id}`) with its items, its invoice and shipping label, and "ready to ship".
 */
export function MarketplaceOrdersPage() {
  const [params, setParams] = useSearchParams();
  const openId = params.get(ORDER_PARAM) ?? undefined;
  const status = params.get('estado') ?? '';
  useMarketplaceRealtime();
  const set = (key: string, value: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== ORDER_PARAM) next.delete('page');
      return next;
    });
  return (
    <>
      <ResourceListPage
        config={screen}
        filters={{ status: status || undefined }}
        filterBar={
          <Box sx={{ mb: 2 }}>
            <TextField select size="small" label="Estado" value={status} onChange={(e) => set('estado', e.target.value)} sx={{ minWidth: 220 }}>
              <MenuItem value="">Todos</MenuItem>
              {Object.entries(marketplaceOrderStatusLabels).map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        }
        onRowClick={(row) => set(ORDER_PARAM, row._id)}
      />
      <OrderDrawer id={openId} onClose={() => set(ORDER_PARAM, undefined)} />
    </>
  );
}

export default MarketplaceOrdersPage;
