import {
  type ChatOrderDraft,
  type ChatOrderInput,
  type ChatOrderOut,
  chatOrderInput,
  MAX_LINE_QUANTITY,
  type Page,
  type SendOrderOut,
  type ProductVariant,
  type ShippingMethod,
  shippingMethodLabels,
  shippingMethods,
} from '@mostrador/contract';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCartOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError, api } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/use-schema-form';
import { formatMoney, type Money, useCompanyMoney } from '../../../lib/money';
import { onCreateOrderRequest } from '../lib/create-order-event';

const enc = encodeURIComponent;

/** A product as the picker lists it (GET /products). */
interface ProductOption {
  _id: string;
  name: string;
  sku: string;
  price: number;
  stock: number;
  variants?: ProductVariant[];
}

/** A line being built: the product, its variant when it has them, how many. */
interface Line {
  key: string;
  product: ProductOption;
  variantSku: string;
  quantity: string;
}

export const createOrderTexts = {
  open: 'Crear pedido',
  title: 'Crear pedido',
  cartFound: (n: number) => `Carrito de WhatsApp con ${n} ${n === 1 ? 'producto' : 'productos'}: revísalo y confírmalo`,
  unknownSku: (sku: string) => `${sku} no está en tus productos: no se agregó`,
  search: 'Agregar producto (nombre o SKU)',
  searchEmpty: 'No hay productos con ese nombre o SKU',
  noLines: 'Agrega los productos del pedido',
  variant: 'Talla o color',
  quantity: 'Cantidad',
  remove: 'Quitar',
  stockLeft: (n: number) => (n > 0 ? `${n} en stock` : 'Agotado'),
  customer: 'Cliente',
  name: 'Nombre',
  phone: 'Teléfono',
  email: 'Correo (opcional)',
  delivery: 'Entrega',
  address: 'Dirección',
  city: 'Ciudad o distrito',
  reference: 'Referencia (opcional)',
  total: 'Total',
  cancel: 'Cancelar',
  submit: 'Crear pedido',
  created: (code: string) => `Pedido ${code} creado`,
  sent: (code: string) => `Pedido ${code} enviado al cliente`,
  sendWithLink: 'Enviar con enlace de pago',
  sendSummary: 'Enviar resumen',
  view: 'Ver pedido',
  loadFailed: 'No se pudieron cargar los datos del pedido',
};

const lineKey = () => Math.random().toString(36).slice(2);
const variantLabel = (v: ProductVariant, colors: Map<string, string>) => [v.size, v.colorId ? colors.get(v.colorId) : undefined].filter(Boolean).join(' · ') || v.sku;
const unitPriceOf = (l: Line) => Number(l.product.variants?.find((v) => v.sku === l.variantSku)?.price ?? l.product.price);
const stockOf = (l: Line) => (l.product.variants?.length ? (l.product.variants.find((v) => v.sku === l.variantSku)?.stock ?? 0) : l.product.stock);

/** The thread header's «Crear pedido»: the dialog opens on the chat's draft (the person, their last delivery, a WhatsApp cart). */
export function CreateOrderButton({ chatId }: { chatId: string }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<ChatOrderOut | null>(null);
  // the cart card's «Crear pedido» (kind-content.tsx) opens this dialog too
  useEffect(() => onCreateOrderRequest(() => setOpen(true)), []);
  return (
    <>
      <Tooltip title={createOrderTexts.open}>
        <IconButton aria-label={createOrderTexts.open} onClick={() => setOpen(true)} data-testid="create-order-button">
          <AddShoppingCartIcon />
        </IconButton>
      </Tooltip>
      {open && (
        <CreateOrderDialog
          chatId={chatId}
          onClose={() => setOpen(false)}
          onCreated={(order) => {
            setOpen(false);
            setCreated(order);
          }}
        />
      )}
      {created && <CreatedOrder chatId={chatId} order={created} onClose={() => setCreated(null)} />}
    </>
  );
}

/** After «Crear pedido»: the order's code, and its summary to the customer — with the payment link, or alone — in one click. */
function CreatedOrder({ chatId, order, onClose }: { chatId: string; order: ChatOrderOut; onClose: () => void }) {
  const [sending, setSending] = useState<'link' | 'summary' | null>(null);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState('');
  const send = async (paymentLink: boolean) => {
    setSending(paymentLink ? 'link' : 'summary');
    setFailure('');
    try {
      await api.post<SendOrderOut>(`/chats/${enc(chatId)}/orders/${enc(order._id)}/send`, { paymentLink }, { overlay: false, notify: false });
      setSent(true);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(null);
    }
  };
  return (
    <Alert
      severity={failure ? 'warning' : 'success'}
      onClose={onClose}
      role="status"
      sx={{ position: 'fixed', bottom: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 1400, boxShadow: 3, width: { xs: 'calc(100% - 32px)', sm: 'auto' }, maxWidth: 560 }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {sent ? createOrderTexts.sent(order.code) : createOrderTexts.created(order.code)}
      </Typography>
      {failure && <Typography variant="body2">{failure}</Typography>}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        {!sent && (
          <>
            <Button size="small" variant="contained" color="success" onClick={() => void send(true)} disabled={!!sending}>
              {sending === 'link' ? <CircularProgress size={16} color="inherit" /> : createOrderTexts.sendWithLink}
            </Button>
            <Button size="small" color="inherit" onClick={() => void send(false)} disabled={!!sending}>
              {sending === 'summary' ? <CircularProgress size={16} color="inherit" /> : createOrderTexts.sendSummary}
            </Button>
          </>
        )}
        <Button component={RouterLink} to={`/ordenes?q=${enc(order.code)}`} size="small" color="inherit">
          {createOrderTexts.view}
        </Button>
      </Box>
    </Alert>
  );
}

function CreateOrderDialog({ chatId, onClose, onCreated }: { chatId: string; onClose: () => void; onCreated: (order: ChatOrderOut) => void }) {
  const phone = useMediaQuery('(max-width:600px)');
  const money = useCompanyMoney();
  const draft = useQuery({
    queryKey: ['chats', chatId, 'order-draft'],
    queryFn: () => api.get<ChatOrderDraft>(`/chats/${enc(chatId)}/order-draft`, { overlay: false }),
    staleTime: 0,
  });
  const colors = useQuery({
    queryKey: ['colors', 'all'],
    queryFn: () => api.get<Page<{ _id: string; name: string }>>('/colors', { query: { limit: 100 }, overlay: false, notify: false }),
    staleTime: 300_000,
  });
  const colorNames = useMemo(() => new Map((colors.data?.payload ?? []).map((c) => [c._id, c.name])), [colors.data]);
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="create-order-title">
      <DialogTitle id="create-order-title">{createOrderTexts.title}</DialogTitle>
      {draft.isLoading ? (
        <DialogContent sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
          <CircularProgress />
        </DialogContent>
      ) : draft.isError || !draft.data ? (
        <DialogContent>
          <Alert severity="error">{createOrderTexts.loadFailed}</Alert>
        </DialogContent>
      ) : (
        <OrderForm chatId={chatId} draft={draft.data} money={{ ...money, currency: draft.data.currency }} colors={colorNames} onClose={onClose} onCreated={onCreated} />
      )}
    </Dialog>
  );
}

function OrderForm({
  chatId,
  draft,
  money,
  colors,
  onClose,
  onCreated,
}: {
  chatId: string;
  draft: ChatOrderDraft;
  money: Money;
  colors: Map<string, string>;
  onClose: () => void;
  onCreated: (order: ChatOrderOut) => void;
}) {
  const [lines, setLines] = useState<Line[]>(() =>
    (draft.cart?.lines ?? [])
      .filter((l) => l.productId)
      .map((l) => ({
        key: lineKey(),
        product: { _id: l.productId as string, name: l.name ?? l.sku, sku: l.sku, price: l.unitPrice ?? 0, stock: l.stock ?? 0 },
        variantSku: l.variantSku ?? '',
        quantity: String(l.quantity),
      })),
  );
  const unknown = (draft.cart?.lines ?? []).filter((l) => !l.productId).map((l) => l.sku);
  const [customer, setCustomer] = useState({ name: draft.customer.name, telefono: draft.customer.telefono ?? '', email: draft.customer.email ?? '' });
  const [shippment, setShippment] = useState({
    method: (draft.shippment?.method ?? 'pickup') as ShippingMethod,
    address: draft.shippment?.address ?? '',
    city: draft.shippment?.city ?? '',
    reference: draft.shippment?.reference ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // one key per dialog: a double click, or a retry after a timeout, is one order
  const [key] = useState(() => crypto.randomUUID());

  // a cart's lines know only the product: the full product (its variants) is read once
  const cartIds = lines.filter((l) => !l.product.variants).map((l) => l.product._id);
  const cartProducts = useQuery({
    queryKey: ['products', 'by-ids', cartIds.join(',')],
    queryFn: () => Promise.all(cartIds.map((id) => api.get<ProductOption>(`/products/${enc(id)}`, { overlay: false, notify: false }))),
    enabled: cartIds.length > 0,
  });
  useEffect(() => {
    const found = new Map((cartProducts.data ?? []).map((p) => [p._id, p]));
    if (found.size) setLines((ls) => ls.map((l) => (found.has(l.product._id) && !l.product.variants ? { ...l, product: { ...(found.get(l.product._id) as ProductOption) } } : l)));
  }, [cartProducts.data]);

  const [search, setSearch] = useState('');
  const products = useQuery({
    queryKey: ['products', 'picker', search],
    queryFn: ({ signal }) => api.get<Page<ProductOption>>('/products', { query: { filter: search || undefined, limit: 20 }, overlay: false, notify: false, signal }),
    staleTime: 30_000,
  });

  const total = lines.reduce((n, l) => n + unitPriceOf(l) * (Number(l.quantity) || 0), 0);
  const add = (p: ProductOption) => setLines((ls) => [...ls, { key: lineKey(), product: p, variantSku: p.variants?.find((v) => v.stock > 0)?.sku ?? p.variants?.[0]?.sku ?? '', quantity: '1' }]);
  const update = (key: string, patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const body = (): ChatOrderInput => ({
    items: lines.map((l) => ({ productId: l.product._id, ...(l.variantSku ? { variantSku: l.variantSku } : {}), quantity: Number(l.quantity) })),
    customer: { name: customer.name, telefono: customer.telefono, ...(customer.email ? { email: customer.email } : {}) },
    shippment:
      shippment.method === 'delivery'
        ? { method: 'delivery', address: shippment.address, city: shippment.city, ...(shippment.reference ? { reference: shippment.reference } : {}) }
        : { method: 'pickup' },
    ...(draft.cart && lines.length ? { cartMessageId: draft.cart.messageId } : {}),
  });

  const submit = async () => {
    setFailure('');
    const input = body();
    const parsed = chatOrderInput.safeParse(input);
    if (!parsed.success) {
      const found = fieldErrorsOf(parsed.error.issues);
      setErrors(found);
      if (found.items) setFailure(found.items);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onCreated(await api.post<ChatOrderOut>(`/chats/${enc(chatId)}/orders`, input, { idempotencyKey: key, overlay: false, notify: false }));
    } catch (error) {
      const details = (error instanceof ApiError ? (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } })?.errors?.details : undefined) ?? [];
      setErrors(Object.fromEntries(details.map((d) => [d.path, d.msg])));
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        {draft.cart && (
          <Alert severity="info" data-testid="cart-found">
            {createOrderTexts.cartFound(draft.cart.lines.length)}
            {unknown.map((sku) => (
              <Typography key={sku} variant="body2">
                {createOrderTexts.unknownSku(sku)}
              </Typography>
            ))}
          </Alert>
        )}
        <Autocomplete<ProductOption>
          options={products.data?.payload ?? []}
          loading={products.isFetching}
          filterOptions={(o) => o}
          getOptionLabel={(p) => `${p.name} · ${p.sku}`}
          isOptionEqualToValue={(a, b) => a._id === b._id}
          noOptionsText={createOrderTexts.searchEmpty}
          value={null}
          blurOnSelect
          clearOnBlur
          onInputChange={(_, value, reason) => reason === 'input' && setSearch(value)}
          onChange={(_, p) => p && add(p)}
          renderOption={(props, p) => (
            <li {...props} key={p._id}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', width: '100%', gap: 1 }}>
                <span>
                  {p.name} <Typography component="span" variant="caption" color="text.secondary">{p.sku}</Typography>
                </span>
                <Typography component="span" variant="body2" color={p.stock > 0 || p.variants?.some((v) => v.stock > 0) ? 'text.secondary' : 'error'}>
                  {formatMoney(Number(p.price), money)}
                </Typography>
              </Box>
            </li>
          )}
          renderInput={(params) => <TextField {...params} label={createOrderTexts.search} />}
        />
        {lines.length === 0 ? (
          <Typography color="text.secondary">{createOrderTexts.noLines}</Typography>
        ) : (
          <Stack spacing={1.5} data-testid="order-lines">
            {lines.map((l, i) => (
              <Box key={l.key} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: '1fr 160px 96px 110px auto' }, gap: 1, alignItems: 'start' }} data-testid="order-line">
                <Box sx={{ minWidth: 0, gridColumn: { xs: '1 / 2', sm: 'auto' } }}>
                  <Typography noWrap>{l.product.name}</Typography>
                  <Typography variant="caption" color={stockOf(l) > 0 ? 'text.secondary' : 'error'}>
                    {formatMoney(unitPriceOf(l), money)} · {createOrderTexts.stockLeft(stockOf(l))}
                  </Typography>
                </Box>
                <IconButton aria-label={`${createOrderTexts.remove} ${l.product.name}`} onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))} sx={{ gridColumn: { xs: '2', sm: '5' }, gridRow: { xs: '1', sm: 'auto' } }}>
                  <DeleteOutlineIcon />
                </IconButton>
                {l.product.variants?.length ? (
                  <TextField
                    select
                    size="small"
                    label={createOrderTexts.variant}
                    value={l.variantSku}
                    onChange={(e) => update(l.key, { variantSku: e.target.value })}
                    error={!!errors[`items.${i}.variantSku`]}
                    helperText={errors[`items.${i}.variantSku`]}
                    sx={{ gridColumn: { xs: '1 / 3', sm: '2' }, gridRow: { sm: '1' } }}
                  >
                    {l.product.variants.map((v) => (
                      <MenuItem key={v.sku} value={v.sku} disabled={v.stock <= 0}>
                        {variantLabel(v, colors)} · {createOrderTexts.stockLeft(v.stock)}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : (
                  <Box sx={{ display: { xs: 'none', sm: 'block' }, gridColumn: { sm: '2' }, gridRow: { sm: '1' } }} />
                )}
                <TextField
                  size="small"
                  type="number"
                  label={createOrderTexts.quantity}
                  value={l.quantity}
                  onChange={(e) => update(l.key, { quantity: e.target.value })}
                  slotProps={{ htmlInput: { min: 1, max: MAX_LINE_QUANTITY, inputMode: 'numeric' } }}
                  error={!!errors[`items.${i}.quantity`]}
                  helperText={errors[`items.${i}.quantity`]}
                  sx={{ gridColumn: { xs: '1', sm: '3' }, gridRow: { sm: '1' } }}
                />
                <Typography sx={{ textAlign: 'right', pt: 1, gridColumn: { xs: '2', sm: '4' }, gridRow: { sm: '1' } }}>{formatMoney(unitPriceOf(l) * (Number(l.quantity) || 0), money)}</Typography>
              </Box>
            ))}
          </Stack>
        )}
        <Typography variant="subtitle2">{createOrderTexts.customer}</Typography>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
          <TextField size="small" label={createOrderTexts.name} value={customer.name} onChange={(e) => setCustomer({ ...customer, name: e.target.value })} error={!!errors['customer.name']} helperText={errors['customer.name']} />
          <TextField size="small" label={createOrderTexts.phone} value={customer.telefono} onChange={(e) => setCustomer({ ...customer, telefono: e.target.value })} error={!!errors['customer.telefono']} helperText={errors['customer.telefono']} slotProps={{ htmlInput: { inputMode: 'tel' } }} />
          <TextField size="small" label={createOrderTexts.email} value={customer.email} onChange={(e) => setCustomer({ ...customer, email: e.target.value })} error={!!errors['customer.email']} helperText={errors['customer.email']} />
        </Box>
        <Typography variant="subtitle2">{createOrderTexts.delivery}</Typography>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '200px 1fr 1fr' } }}>
          <TextField select size="small" label={createOrderTexts.delivery} value={shippment.method} onChange={(e) => setShippment({ ...shippment, method: e.target.value as ShippingMethod })}>
            {shippingMethods.map((m) => (
              <MenuItem key={m} value={m}>
                {shippingMethodLabels[m]}
              </MenuItem>
            ))}
          </TextField>
          {shippment.method === 'delivery' && (
            <>
              <TextField size="small" label={createOrderTexts.address} value={shippment.address} onChange={(e) => setShippment({ ...shippment, address: e.target.value })} error={!!errors['shippment.address']} helperText={errors['shippment.address']} />
              <TextField size="small" label={createOrderTexts.city} value={shippment.city} onChange={(e) => setShippment({ ...shippment, city: e.target.value })} error={!!errors['shippment.city']} helperText={errors['shippment.city']} />
              <TextField size="small" label={createOrderTexts.reference} value={shippment.reference} onChange={(e) => setShippment({ ...shippment, reference: e.target.value })} sx={{ gridColumn: { sm: '2 / 4' } }} />
            </>
          )}
        </Box>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: { xs: 2, sm: 3 }, py: 1.5, justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h6" component="p" data-testid="order-total" sx={{ whiteSpace: 'nowrap', fontSize: { xs: '1rem', sm: '1.25rem' } }}>
          {createOrderTexts.total}: {formatMoney(total, money)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button onClick={onClose}>{createOrderTexts.cancel}</Button>
          <Button variant="contained" onClick={() => void submit()} disabled={busy || lines.length === 0} sx={{ whiteSpace: 'nowrap' }}>
            {busy ? <CircularProgress size={20} color="inherit" /> : createOrderTexts.submit}
          </Button>
        </Box>
      </DialogActions>
    </>
  );
}
