import { type PushResult, variationCreate, variationPatch } from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Save from '@mui/icons-material/SaveOutlined';
import Send from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { ApiError } from '../../lib/api-client';
import { showSuccess } from '../../lib/feedback';
import { currencySymbol, type Money, moneyOf } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { resourceKeys, ecommerceKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { ecommerceApi, type Variation, type VariationBatch, useVariations } from './api';

type Draft = { price: string; stock: string };
type Note = { severity: 'success' | 'info' | 'warning' | 'error'; msg: string };

/** How a push went, as an alert's colour. */
export const severityOf = (result: PushResult): Note['severity'] =>
  result.status === 'synced' ? 'success' : result.status === 'failed' ? 'warning' : 'info';

/** «59,90» or «59.90» → 59.9; a whole number for stock. Empty or unreadable: NaN (the schema says why). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

/** The changes of a row's draft, checked by the contract's schema: the body, or the Spanish message per field. */
export function checkDraft(variation: Variation, draft: Draft): { body?: { price?: number; stock?: number }; errors: Partial<Record<keyof Draft, string>> } {
  const body: { price?: number; stock?: number } = {};
  const price = numberOf(draft.price);
  const stock = numberOf(draft.stock);
  if (price !== variation.price) body.price = price;
  if (stock !== variation.stock) body.stock = stock;
  const parsed = variationPatch.safeParse(body);
  if (parsed.success) return { body: parsed.data, errors: {} };
  const errors: Partial<Record<keyof Draft, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'price' || field === 'stock') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

const draftOf = (v: Variation): Draft => ({ price: String(v.price), stock: String(v.stock) });
const attributesText = (v: Pick<Variation, 'attributes'>) => v.attributes.map((a) => `${a.nombre} ${a.value}`).join(' · ');

function VariationRow({
  variation,
  draft,
  errors,
  note,
  money,
  canUpdate,
  busy,
  onDraft,
  onSave,
  onPush,
  onDelete,
}: {
  variation: Variation;
  draft: Draft;
  errors: Partial<Record<keyof Draft, string>>;
  note?: Note;
  money: Money;
  canUpdate: boolean;
  busy: boolean;
  onDraft: (draft: Draft) => void;
  onSave: () => void;
  onPush: () => void;
  onDelete: () => void;
}) {
  const dirty = draft.price !== String(variation.price) || draft.stock !== String(variation.stock);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty) onSave();
  };
  return (
    <Box
      component="form"
      role="listitem"
      noValidate
      onSubmit={submit}
      aria-label={`Variación ${variation.sku}`}
      data-testid="variation"
      sx={{
        display: 'grid',
        gap: 1.5,
        alignItems: 'start',
        gridTemplateColumns: { xs: '1fr 1fr', md: 'minmax(0, 2.2fr) 150px 110px auto' },
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, minWidth: 0 }}>
        <Typography sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>{variation.sku}</Typography>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
          {variation.attributes.map((a) => (
            <Chip key={`${a.nombre}-${a.value}`} size="small" variant="outlined" label={`${a.nombre}: ${a.value}`} />
          ))}
          <Chip
            size="small"
            color={dirty ? 'warning' : 'default'}
            label={dirty ? 'Sin guardar' : variation.woocommerceId ? `En la tienda #${variation.woocommerceId}` : 'Solo en Mostrador'}
          />
        </Box>
      </Box>
      <TextField
        size="small"
        label="Precio"
        value={draft.price}
        disabled={!canUpdate}
        onChange={(e) => onDraft({ ...draft, price: e.target.value })}
        error={!!errors.price}
        helperText={errors.price}
        slotProps={{
          htmlInput: { inputMode: 'decimal', 'aria-label': `Precio de ${variation.sku}` },
          input: { startAdornment: <InputAdornment position="start">{currencySymbol(money)}</InputAdornment> },
        }}
      />
      <TextField
        size="small"
        label="Stock"
        value={draft.stock}
        disabled={!canUpdate}
        onChange={(e) => onDraft({ ...draft, stock: e.target.value })}
        error={!!errors.stock}
        helperText={errors.stock}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `Stock de ${variation.sku}` } }}
      />
      {canUpdate && (
        <Box sx={{ display: 'flex', gap: 0.5, gridColumn: { xs: '1 / -1', md: 'auto' }, justifyContent: { xs: 'flex-start', md: 'flex-end' }, flexWrap: 'wrap' }}>
          <Button size="small" type="submit" startIcon={<Save fontSize="small" />} disabled={!dirty || busy} aria-label={`Guardar ${variation.sku}`}>
            Guardar
          </Button>
          <Tooltip title={dirty ? 'Guarda y envía esta variación a la tienda' : 'Envía esta variación a la tienda'}>
            <span>
              <Button size="small" startIcon={<Send fontSize="small" />} onClick={onPush} disabled={busy} aria-label={`Enviar ${variation.sku} a la tienda`}>
                Enviar
              </Button>
            </span>
          </Tooltip>
          <Tooltip title="Eliminar la variación (también en la tienda)">
            <span>
              <IconButton size="small" color="error" onClick={onDelete} disabled={busy} aria-label={`Eliminar ${variation.sku}`}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      )}
      {note && (
        <Alert severity={note.severity} sx={{ gridColumn: '1 / -1', py: 0 }} role="status" data-testid="variation-note">
          {note.msg}
        </Alert>
      )}
    </Box>
  );
}

/** «Agregar variación»: SKU, price, stock and one value of each of the product's attributes; sent in a batch. */
function NewVariationDialog({
  product,
  money,
  open,
  onClose,
  onCreate,
}: {
  product: ResourceRecord;
  money: Money;
  open: boolean;
  onClose: () => void;
  onCreate: (body: NonNullable<VariationBatch['create']>[number]) => Promise<boolean>;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const attributes = (Array.isArray(product.attributes) ? product.attributes : []) as Array<{ nombre: string; values: string[] }>;
  const [values, setValues] = useState<Record<string, string>>({});
  const [sku, setSku] = useState('');
  const [price, setPrice] = useState(String(product.price ?? ''));
  const [stock, setStock] = useState('0');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      sku,
      price: numberOf(price),
      stock: numberOf(stock),
      attributes: attributes.filter((a) => values[a.nombre]).map((a) => ({ nombre: a.nombre, value: values[a.nombre] })),
    };
    const parsed = variationCreate.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setPending(true);
    const ok = await onCreate(parsed.data).finally(() => setPending(false));
    if (ok) {
      setSku('');
      setValues({});
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Agregar variación
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <Box component="form" id={`${titleId}-form`} noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <TextField label="SKU" required value={sku} onChange={(e) => setSku(e.target.value)} error={!!errors.sku} helperText={errors.sku ?? 'Letras, números, puntos y guiones'} />
          {attributes.map((a) => (
            <TextField key={a.nombre} select label={a.nombre} value={values[a.nombre] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [a.nombre]: e.target.value }))}>
              {a.values.map((value) => (
                <MenuItem key={value} value={value}>
                  {value}
                </MenuItem>
              ))}
            </TextField>
          ))}
          <TextField
            label="Precio"
            required
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            error={!!errors.price}
            helperText={errors.price}
            slotProps={{ htmlInput: { inputMode: 'decimal' }, input: { startAdornment: <InputAdornment position="start">{currencySymbol(money)}</InputAdornment> } }}
          />
          <TextField label="Stock" required value={stock} onChange={(e) => setStock(e.target.value)} error={!!errors.stock} helperText={errors.stock} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
          {errors.attributes && <Alert severity="error">{errors.attributes}</Alert>}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button type="submit" form={`${titleId}-form`} variant="contained" disabled={pending}>
          Agregar y enviar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A product's variations, edited in place: «Guardar» saves one (PUT /ecommerces/{id}/variations/
 * {variationId}), «Enviar» sends it to the store (POST …/{variationId}, saving first if changed),
 * «Guardar todo y enviar», «Agregar variación» and delete go as one store batch (POST …/batch).
 * Each row says what happened to it.
 */
export function VariationsEditor({ product }: { product: ResourceRecord }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { can } = usePermissions();
  const canUpdate = can('ecommerce', 'update');
  const list = useVariations(product._id);
  const money = moneyOf({ country: typeof product.country === 'string' ? product.country : undefined });
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [notes, setNotes] = useState<Record<string, Note>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [batchNote, setBatchNote] = useState<Note | null>(null);
  const [adding, setAdding] = useState(false);
  const variations = list.data?.payload ?? [];

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ecommerceKeys.variations(product._id, companyId) });
    void queryClient.invalidateQueries({ queryKey: resourceKeys('ecommerces').all });
  };
  const replace = (saved: Variation) =>
    queryClient.setQueryData<{ payload: Variation[]; totalDocs: number }>(ecommerceKeys.variations(product._id, companyId), (data) =>
      data ? { ...data, payload: data.payload.map((v) => (v._id === saved._id ? saved : v)) } : data,
    );
  const draftFor = (v: Variation) => drafts[v._id] ?? draftOf(v);
  const forget = (id: string) =>
    setDrafts((d) => {
      const { [id]: _, ...rest } = d;
      return rest;
    });
  const note = (id: string, value: Note) => setNotes((n) => ({ ...n, [id]: value }));
  const failure = (error: unknown) => (error instanceof ApiError ? error.messages.join('. ') : 'No se pudo completar. Inténtalo de nuevo.');
  const rowErrors = (v: Variation) => (drafts[v._id] ? checkDraft(v, drafts[v._id]).errors : {});

  /** Saves a row's changes; answers whether it may go on (nothing to save counts as yes). */
  const save = async (v: Variation, quiet = false): Promise<boolean> => {
    const draft = drafts[v._id];
    if (!draft) return true;
    const { body } = checkDraft(v, draft);
    if (!body) return false;
    if (Object.keys(body).length === 0) {
      forget(v._id);
      return true;
    }
    try {
      replace(await ecommerceApi.putVariation(product._id, v._id, body));
      forget(v._id);
      if (!quiet) note(v._id, { severity: 'info', msg: 'Guardada en Mostrador. Usa «Enviar» para llevarla a la tienda.' });
      return true;
    } catch (error) {
      note(v._id, { severity: 'error', msg: failure(error) });
      return false;
    }
  };

  const onSave = async (v: Variation) => {
    setBusy(v._id);
    await save(v).finally(() => setBusy(null));
  };

  const onPush = async (v: Variation) => {
    setBusy(v._id);
    try {
      if (!(await save(v, true))) return;
      const result = await ecommerceApi.pushVariation(product._id, v._id);
      note(v._id, { severity: severityOf(result), msg: result.msg });
      refresh();
    } catch (error) {
      note(v._id, { severity: 'error', msg: failure(error) });
    } finally {
      setBusy(null);
    }
  };

  const runBatch = async (body: VariationBatch): Promise<boolean> => {
    setBusy('batch');
    try {
      const result = await ecommerceApi.batchVariations(product._id, body);
      setBatchNote({ severity: severityOf(result.sync), msg: result.sync.msg });
      if (result.sync.status !== 'failed') showSuccess(result.sync.msg);
      for (const v of result.update) forget(v._id);
      refresh();
      return true;
    } catch (error) {
      setBatchNote({ severity: 'error', msg: failure(error) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const changed = variations.filter((v) => drafts[v._id] && Object.keys(checkDraft(v, drafts[v._id]).body ?? { bad: 1 }).length > 0);
  const saveAll = () => {
    const update = changed.map((v) => ({ _id: v._id, ...checkDraft(v, drafts[v._id]).body }));
    if (changed.some((v) => !checkDraft(v, drafts[v._id]).body)) return;
    void runBatch({ update });
  };
  const remove = async (v: Variation) => {
    const ok = await confirm({
      message: `¿Eliminar la variación ${v.sku}${attributesText(v) ? ` (${attributesText(v)})` : ''}? También se elimina en la tienda.`,
      acceptLabel: 'Eliminar variación',
      destructive: true,
    });
    if (ok) void runBatch({ delete: [v._id] });
  };
  const invalid = changed.some((v) => !checkDraft(v, drafts[v._id]).body);

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
          {list.data ? (variations.length === 1 ? '1 variación' : `${variations.length} variaciones`) : ''}
        </Typography>
        {canUpdate && (
          <>
            <Button size="small" startIcon={<Add fontSize="small" />} onClick={() => setAdding(true)} disabled={busy !== null}>
              Agregar variación
            </Button>
            <Button size="small" variant="contained" startIcon={<Send fontSize="small" />} onClick={saveAll} disabled={changed.length === 0 || invalid || busy !== null}>
              {changed.length > 1 ? `Guardar ${changed.length} y enviar` : 'Guardar todo y enviar'}
            </Button>
          </>
        )}
      </Box>
      {batchNote && (
        <Alert severity={batchNote.severity} onClose={() => setBatchNote(null)} data-testid="batch-note">
          {batchNote.msg}
        </Alert>
      )}
      {list.isLoading && <Skeleton variant="rounded" height={120} />}
      {list.isError && (
        <Alert severity="warning" action={<Button onClick={() => list.refetch()}>Reintentar</Button>}>
          No se pudieron cargar las variaciones.
        </Alert>
      )}
      {list.data && variations.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ py: 2 }} data-testid="no-variations">
          Este producto no tiene variaciones: se vende con su propio precio y stock.
        </Typography>
      )}
      <Box role="list" aria-label="Variaciones">
        {variations.map((v) => (
          <VariationRow
            key={v._id}
            variation={v}
            draft={draftFor(v)}
            errors={rowErrors(v)}
            note={notes[v._id]}
            money={money}
            canUpdate={canUpdate}
            busy={busy !== null}
            onDraft={(draft) => setDrafts((d) => ({ ...d, [v._id]: draft }))}
            onSave={() => void onSave(v)}
            onPush={() => void onPush(v)}
            onDelete={() => void remove(v)}
          />
        ))}
      </Box>
      {canUpdate && (
        <NewVariationDialog product={product} money={money} open={adding} onClose={() => setAdding(false)} onCreate={(body) => runBatch({ create: [body] })} />
      )}
    </Box>
  );
}
