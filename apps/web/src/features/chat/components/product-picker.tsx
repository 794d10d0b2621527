import {
  type ChatMessage,
  type ChatProductChoice,
  type ChatProductOption,
  type ChatProductsOut,
  CHAT_PRODUCTS_MAX,
  MESSENGER_CARDS_MAX,
  productPrice,
  variantLabel,
} from '@mostrador/contract';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api } from '../../../lib/api-client';
import { chatKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { safeMediaUrl } from '../lib/media';

const enc = encodeURIComponent;

export const productPickerTexts = {
  open: 'Productos',
  title: 'Enviar productos',
  search: 'Buscar por nombre, SKU o categoría',
  inStock: 'Solo con stock',
  text: 'Texto (opcional)',
  send: 'Enviar',
  cancel: 'Cancelar',
  none: 'No hay productos que coincidan',
  failed: 'No se pudieron enviar los productos',
  loadFailed: 'No se pudieron cargar los productos',
  notInCatalog: 'Aún no está en el catálogo de Meta de la línea (sincronízalo)',
  stock: (n: number) => (n > 0 ? `${n} en stock` : 'Sin stock'),
  variants: (n: number) => `${n} variantes`,
  showVariants: 'Elegir talla o color',
  hideVariants: 'Ocultar variantes',
  variantsOf: (name: string) => `Variantes de ${name}`,
  chosen: (n: number, max: number) => `${n} de ${max} elegidos`,
  max: (max: number) => `Máximo ${max} productos por mensaje${max === MESSENGER_CARDS_MAX ? ' en Messenger e Instagram' : ' (el límite de WhatsApp)'}`,
  windowClosed: 'Fuera de la ventana de 24 horas los productos no se pueden enviar: envía una plantilla aprobada para retomar la conversación.',
  template: 'Enviar plantilla',
} as const;

export const productPickerApi = {
  list: (chatId: string, q: string, inStock: boolean, signal?: AbortSignal) =>
    api.get<ChatProductsOut>(`/chats/${enc(chatId)}/products`, { query: { q: q || undefined, inStock: inStock || undefined }, overlay: false, notify: false, signal }),
  send: (chatId: string, body: { productIds: string[]; text?: string } | { items: ChatProductChoice[]; text?: string }, idempotencyKey: string) =>
    api.post<ChatMessage>(`/chats/${enc(chatId)}/products`, body, { overlay: false, notify: false, idempotencyKey }),
};

const newSendKey = () => `prd-${globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;

export interface ProductPickerProps {
  chatId: string;
  open: boolean;
  /** The chat's channel: Messenger and Instagram show at most 10 products. */
  channel?: 'whatsapp' | 'messenger' | 'instagram';
  /** Outside the 24-hour window: nothing can go, a template is offered. */
  windowClosed?: boolean;
  onClose: () => void;
  onSent: (message: ChatMessage) => void;
  onTemplate?: () => void;
}

function Thumb({ src, alt }: { src?: string; alt: string }) {
  const safe = safeMediaUrl(src);
  return safe ? (
    <Box component="img" src={safe} alt={alt} loading="lazy" sx={{ width: 44, height: 44, objectFit: 'cover', borderRadius: 1, flex: 'none', bgcolor: 'action.hover' }} />
  ) : (
    <Box sx={{ width: 44, height: 44, borderRadius: 1, flex: 'none', bgcolor: 'action.hover', display: 'grid', placeItems: 'center' }}>
      <Inventory2OutlinedIcon fontSize="small" color="disabled" />
    </Box>
  );
}

type Variant = NonNullable<ChatProductOption['variants']>[number];
/** One entry chosen: a product, or one of its variants. */
interface Chosen {
  product: ChatProductOption;
  variant?: Variant;
}
const keyOf = (productId: string, variantSku?: string) => `${productId}|${variantSku ?? ''}`;

/**
 * The composer's «Productos» (issue 30, decision 0085): the company's products searched by
 * name, SKU or category (in stock only if asked), one or several chosen (at most 30 on
 * WhatsApp, 10 on Messenger and Instagram), an optional text, and sent as products. On WhatsApp
 * only those Meta accepted in the line's catalogue can be chosen. A product sold in sizes or
 * colours opens to choose its variants, each with its stock and price; one sold out cannot be
 * chosen (decision 0091). Full screen on a phone.
 */
export function ProductPicker({ chatId, open, channel = 'whatsapp', windowClosed = false, onClose, onSent, onTemplate }: ProductPickerProps) {
  const { companyId } = useSession();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [inStock, setInStock] = useState(false);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [sendKey, setSendKey] = useState(newSendKey);
  const max = channel === 'whatsapp' ? CHAT_PRODUCTS_MAX : MESSENGER_CARDS_MAX;

  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);

  const products = useQuery({
    queryKey: chatKeys.products(chatId, companyId, q, inStock),
    queryFn: ({ signal }) => productPickerApi.list(chatId, q, inStock, signal),
    enabled: open && !windowClosed,
    placeholderData: keepPreviousData,
    retry: false,
    meta: { quiet: true },
  });

  const isChosen = (id: string, sku?: string) => chosen.some((c) => keyOf(c.product.id, c.variant?.sku) === keyOf(id, sku));
  const toggle = (product: ChatProductOption, variant?: Variant) => {
    setRefusal(undefined);
    const key = keyOf(product.id, variant?.sku);
    setChosen((list) =>
      list.some((c) => keyOf(c.product.id, c.variant?.sku) === key)
        ? list.filter((c) => keyOf(c.product.id, c.variant?.sku) !== key)
        : list.length >= max
          ? list
          : [...list, { product, ...(variant ? { variant } : {}) }],
    );
  };
  const toggleExpanded = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const full = chosen.length >= max;

  const close = () => {
    setRefusal(undefined);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen.length || sending) return;
    setSending(true);
    setRefusal(undefined);
    try {
      const extra = text.trim() ? { text: text.trim() } : {};
      // without a variant the call is issue 30's productIds; a variant chosen needs items (decision 0091)
      const body = chosen.some((c) => c.variant)
        ? { items: chosen.map((c) => ({ productId: c.product.id, ...(c.variant ? { variantSku: c.variant.sku } : {}) })), ...extra }
        : { productIds: chosen.map((c) => c.product.id), ...extra };
      const message = await productPickerApi.send(chatId, body, sendKey);
      onSent(message);
      setChosen([]);
      setText('');
      setSendKey(newSendKey());
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        setSendKey(newSendKey());
        setRefusal(error.messages[0] ?? productPickerTexts.failed);
      } else setRefusal(productPickerTexts.failed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="product-picker-title">
      <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
        <DialogTitle id="product-picker-title">{productPickerTexts.title}</DialogTitle>
        <DialogContent dividers sx={{ display: 'grid', gap: 1.5, alignContent: 'start' }}>
          {windowClosed ? (
            <Alert
              severity="warning"
              data-testid="products-window-closed"
              action={
                onTemplate && (
                  <Button
                    color="inherit"
                    size="small"
                    onClick={() => {
                      close();
                      onTemplate();
                    }}
                  >
                    {productPickerTexts.template}
                  </Button>
                )
              }
            >
              {productPickerTexts.windowClosed}
            </Alert>
          ) : (
            <>
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
                <TextField
                  size="small"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder={productPickerTexts.search}
                  slotProps={{ htmlInput: { 'aria-label': productPickerTexts.search } }}
                  sx={{ flex: '1 1 220px' }}
                  autoFocus
                />
                <FormControlLabel control={<Switch checked={inStock} onChange={(e) => setInStock(e.target.checked)} />} label={productPickerTexts.inStock} />
              </Box>
              <Typography variant="caption" color={full ? 'warning.main' : 'text.secondary'} data-testid="products-chosen" aria-live="polite">
                {productPickerTexts.chosen(chosen.length, max)}
                {full ? ` · ${productPickerTexts.max(max)}` : ''}
              </Typography>
              {products.isLoading && <CircularProgress size={24} sx={{ justifySelf: 'center' }} />}
              {products.isError && <Alert severity="error">{products.error instanceof ApiError ? products.error.messages[0] : productPickerTexts.loadFailed}</Alert>}
              {products.data && products.data.payload.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {productPickerTexts.none}
                </Typography>
              )}
              <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5 }} aria-label={productPickerTexts.title}>
                {products.data?.payload.map((p) => {
                  const selected = isChosen(p.id);
                  const disabled = !p.inCatalog || (!selected && full);
                  const variants = p.variants ?? [];
                  const open = expanded.has(p.id);
                  const variantsChosen = chosen.filter((c) => c.product.id === p.id && c.variant).length;
                  return (
                    <Box component="li" key={p.id}>
                      <Box
                        component="label"
                        sx={{
                          display: 'flex',
                          gap: 1,
                          alignItems: 'center',
                          p: 0.5,
                          borderRadius: 1,
                          cursor: disabled ? 'default' : 'pointer',
                          opacity: !p.inCatalog ? 0.6 : 1,
                          bgcolor: selected ? 'action.selected' : undefined,
                          minWidth: 0,
                        }}
                      >
                        <Checkbox checked={selected} disabled={disabled} onChange={() => toggle(p)} slotProps={{ input: { 'aria-label': p.name } }} size="small" />
                        <Thumb src={p.imageUrl} alt={p.name} />
                        <Box sx={{ minWidth: 0, flex: 1 }}>
                          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                            {p.name}
                          </Typography>
                          <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                            {[p.sku, p.category, productPickerTexts.stock(p.stock), variants.length ? productPickerTexts.variants(variants.length) : ''].filter(Boolean).join(' · ')}
                          </Typography>
                          {!p.inCatalog && (
                            <Typography variant="caption" color="warning.main" component="p" sx={{ m: 0 }}>
                              {productPickerTexts.notInCatalog}
                            </Typography>
                          )}
                        </Box>
                        <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                          {productPrice(p.price, p.currency)}
                        </Typography>
                      </Box>
                      {variants.length > 0 && p.inCatalog && (
                        <Button
                          size="small"
                          onClick={() => toggleExpanded(p.id)}
                          aria-expanded={open}
                          aria-controls={`variants-${p.id}`}
                          endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                          sx={{ ml: 5.5, textTransform: 'none' }}
                        >
                          {open ? productPickerTexts.hideVariants : productPickerTexts.showVariants}
                          {variantsChosen ? ` (${variantsChosen})` : ''}
                        </Button>
                      )}
                      {open && p.inCatalog && (
                        <Box component="ul" id={`variants-${p.id}`} aria-label={productPickerTexts.variantsOf(p.name)} sx={{ listStyle: 'none', m: 0, p: 0, pl: { xs: 3, sm: 5.5 }, display: 'grid', gap: 0.25 }}>
                          {variants.map((v) => {
                            const label = variantLabel(v);
                            const on = isChosen(p.id, v.sku);
                            const soldOut = v.stock <= 0;
                            const off = soldOut || (!on && full);
                            return (
                              <Box component="li" key={v.sku} data-testid="product-variant">
                                <Box
                                  component="label"
                                  sx={{ display: 'flex', gap: 1, alignItems: 'center', p: 0.25, borderRadius: 1, cursor: off ? 'default' : 'pointer', opacity: soldOut ? 0.6 : 1, bgcolor: on ? 'action.selected' : undefined, minWidth: 0 }}
                                >
                                  <Checkbox checked={on} disabled={off} onChange={() => toggle(p, v)} slotProps={{ input: { 'aria-label': `${p.name} — ${label}` } }} size="small" />
                                  <Box sx={{ minWidth: 0, flex: 1 }}>
                                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                                      {label}
                                    </Typography>
                                    <Typography variant="caption" color={soldOut ? 'warning.main' : 'text.secondary'} component="p" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                                      {[v.sku, productPickerTexts.stock(v.stock)].join(' · ')}
                                    </Typography>
                                  </Box>
                                  <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
                                    {productPrice(v.price, p.currency)}
                                  </Typography>
                                </Box>
                              </Box>
                            );
                          })}
                        </Box>
                      )}
                    </Box>
                  );
                })}
              </Box>
              <TextField size="small" label={productPickerTexts.text} value={text} onChange={(e) => setText(e.target.value)} multiline maxRows={4} slotProps={{ htmlInput: { maxLength: 1024 } }} />
            </>
          )}
          {refusal && (
            <Alert severity="error" data-testid="products-refusal">
              {refusal}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{productPickerTexts.cancel}</Button>
          {!windowClosed && (
            <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={!chosen.length || sending}>
              {productPickerTexts.send}
              {chosen.length ? ` (${chosen.length})` : ''}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
