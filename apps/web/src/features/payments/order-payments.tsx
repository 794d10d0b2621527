import { type ManualPaymentMethod, manualPaymentMethodLabels, manualPaymentMethods, type PaymentOut, type PaymentStatus } from '@mostrador/contract';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Link from '@mui/icons-material/Link';
import PriceCheck from '@mui/icons-material/PriceCheck';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import LinearProgress from '@mui/material/LinearProgress';
import { useId, useRef, useState } from 'react';
import { driveTooBig, uploadToDrive } from '../drive/api';
import { formatInstant } from '../../components/crud/cell-value';
import { ApiError } from '../../lib/api-client';
import { formatMoney, type Money } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { imageSrc } from '../../lib/image-src';
import { useMarkPaid, useOrderPayments, usePaymentLink, useProofImages } from './api';

const chipColor: Record<PaymentStatus, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  link: 'default',
  pending: 'info',
  approved: 'success',
  rejected: 'error',
  refunded: 'warning',
};

const errorText = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

function PaymentItem({ p, money }: { p: PaymentOut; money: Money }) {
  const how = p.provider === 'manual' ? `${p.methodLabel ?? 'Manual'} (a mano)` : p.status === 'link' ? 'Mercado Pago · enlace' : `Mercado Pago${p.method ? ` · ${p.method}` : ''}`;
  const amount = typeof p.amount === 'number' ? formatMoney(p.amount, { ...money, currency: p.currency ?? money.currency }) : '';
  return (
    <Box component="li" data-testid="payment" sx={{ py: 1, borderBottom: 1, borderColor: 'divider', display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" color={chipColor[p.status]} label={p.statusLabel} variant={p.status === 'link' ? 'outlined' : 'filled'} />
        <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }}>
          {how}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
          {amount}
        </Typography>
      </Box>
      <Typography variant="caption" color="text.secondary">
        {formatInstant(p.updatedAt)}
        {p.byName ? ` · ${p.byName}` : ''}
        {p.providerPaymentId ? ` · operación ${p.providerPaymentId}` : ''}
        {p.proofMessageId ? ' · con comprobante del chat' : ''}
        {p.proofFileId ? ' · con comprobante subido' : ''}
      </Typography>
      {p.proofUrl && p.proofMimeType === 'application/pdf' && (
        <Button size="small" href={imageSrc(p.proofUrl) ?? p.proofUrl} target="_blank" rel="noopener noreferrer" sx={{ justifySelf: 'start' }}>
          Ver comprobante (PDF)
        </Button>
      )}
      {p.proofUrl && p.proofMimeType !== 'application/pdf' && (
        <Box component="a" href={imageSrc(p.proofUrl)} target="_blank" rel="noopener noreferrer" aria-label="Ver comprobante" sx={{ width: 56, height: 56, borderRadius: 1, overflow: 'hidden', display: 'block', border: 1, borderColor: 'divider' }}>
          <img src={imageSrc(p.proofUrl)} alt="Comprobante de pago" width={56} height={56} style={{ objectFit: 'cover', display: 'block' }} />
        </Box>
      )}
      {p.note && <Typography variant="body2">Nota: {p.note}</Typography>}
      {p.flaggedReason && (
        <Alert severity="warning" sx={{ py: 0 }}>
          {p.flaggedReason}
        </Alert>
      )}
    </Box>
  );
}

function MarkPaidDialog({ open, onClose, order, money }: { open: boolean; onClose: () => void; order: { _id: string; code: string; total: number }; money: Money }) {
  const titleId = useId();
  const mark = useMarkPaid(order._id);
  const [amount, setAmount] = useState(Number.isInteger(order.total) ? String(order.total) : order.total.toFixed(2));
  const [method, setMethod] = useState<ManualPaymentMethod>('yape');
  const [note, setNote] = useState('');
  const [proof, setProof] = useState<string>();
  // or a file from the device (a screenshot the customer sent elsewhere, a bank's PDF): uploaded to Drive first
  const [uploaded, setUploaded] = useState<{ id: string; name: string; url: string; pdf: boolean }>();
  const [progress, setProgress] = useState<number>();
  const [uploadError, setUploadError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const images = useProofImages(order._id);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(undefined);
    if (!file.type.startsWith('image/') && file.type !== 'application/pdf') {
      setUploadError('El comprobante debe ser una imagen o un PDF');
      return;
    }
    const tooBig = driveTooBig(file);
    if (tooBig) {
      setUploadError(tooBig);
      return;
    }
    setProgress(0);
    try {
      const { file: saved } = await uploadToDrive(file, 'Comprobantes', setProgress);
      setUploaded({ id: saved._id, name: saved.name, url: saved.path, pdf: saved.mimeType === 'application/pdf' });
      setProof(undefined);
    } catch (error) {
      setUploadError(errorText(error, 'No se pudo subir el comprobante'));
    } finally {
      setProgress(undefined);
    }
  };
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const submit = () => {
    setErrors({});
    setFailure(undefined);
    const value = Number(amount.replace(',', '.'));
    if (!amount.trim() || !Number.isFinite(value) || value <= 0) {
      setErrors({ amount: 'El monto debe ser mayor que cero' });
      return;
    }
    mark.mutate(
      {
        amount: value,
        method,
        ...(proof ? { proofMessageId: proof } : {}),
        ...(uploaded && !proof ? { proofFileId: uploaded.id } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      {
        onSuccess: onClose,
        onError: (error) => {
          const details = error instanceof ApiError ? (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details : undefined;
          setErrors(Object.fromEntries((details ?? []).map((d) => [d.path, d.msg])));
          setFailure(errorText(error, 'No se pudo marcar la orden como pagada'));
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Marcar pagado · {order.code}</DialogTitle>
      <DialogContent>
        <Box
          component="form"
          id={`${titleId}-form`}
          aria-label="Marcar pagado"
          sx={{ display: 'grid', gap: 2, pt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Typography variant="body2" color="text.secondary">
            Total de la orden: {formatMoney(order.total, money)}. Si el monto es otro, explica por qué en la nota.
          </Typography>
          <TextField
            label="Monto pagado"
            size="small"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={!!errors.amount}
            helperText={errors.amount}
            required
          />
          <TextField select label="Medio de pago" size="small" value={method} onChange={(e) => setMethod(e.target.value as ManualPaymentMethod)}>
            {manualPaymentMethods.map((m) => (
              <MenuItem key={m} value={m}>
                {manualPaymentMethodLabels[m]}
              </MenuItem>
            ))}
          </TextField>
          <Box role="group" aria-label="Comprobante" sx={{ display: 'grid', gap: 0.75 }}>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              Comprobante (una imagen del chat o un archivo)
            </Typography>
            {images.isLoading && <Skeleton variant="rounded" height={64} />}
            {images.isError && <Typography variant="caption" color="text.secondary">No se pudieron leer las imágenes del chat.</Typography>}
            {images.isSuccess && !images.data.payload.length && (
              <Typography variant="caption" color="text.secondary">
                El chat de esta orden no tiene imágenes: sube el comprobante o márcala pagada sin él.
              </Typography>
            )}
            {!!images.data?.payload.length && (
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                {images.data.payload.slice(0, 8).map((img) => (
                  <Box
                    key={img._id}
                    component="button"
                    type="button"
                    aria-pressed={proof === img._id}
                    aria-label={`Imagen del ${formatInstant(img.sentAt)}${img.text ? `: ${img.text}` : ''}`}
                    onClick={() => {
                      setProof((p) => (p === img._id ? undefined : img._id));
                      setUploaded(undefined);
                    }}
                    sx={{ p: 0, width: 64, height: 64, borderRadius: 1, overflow: 'hidden', cursor: 'pointer', border: 2, borderColor: proof === img._id ? 'primary.main' : 'divider', bgcolor: 'action.hover' }}
                  >
                    <img src={imageSrc(img.mediaUrl)} alt="" width={64} height={64} style={{ objectFit: 'cover', display: 'block' }} />
                  </Box>
                ))}
              </Box>
            )}
            <input
              ref={fileInput}
              type="file"
              accept="image/*,application/pdf"
              hidden
              aria-label="Comprobante desde el dispositivo"
              onChange={(e) => {
                void pick(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Button size="small" variant="outlined" startIcon={<UploadFile />} onClick={() => fileInput.current?.click()} disabled={progress !== undefined}>
                Subir desde el dispositivo
              </Button>
              {uploaded && (
                <Chip
                  size="small"
                  color="primary"
                  label={uploaded.pdf ? `PDF: ${uploaded.name}` : uploaded.name}
                  onDelete={() => setUploaded(undefined)}
                  aria-label={`Comprobante subido: ${uploaded.name}`}
                  sx={{ maxWidth: '100%' }}
                />
              )}
            </Box>
            {progress !== undefined && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label="Subiendo el comprobante" />}
            {uploaded && !uploaded.pdf && (
              <Box sx={{ width: 64, height: 64, borderRadius: 1, overflow: 'hidden', border: 2, borderColor: 'primary.main' }}>
                <img src={imageSrc(uploaded.url)} alt="Comprobante subido" width={64} height={64} style={{ objectFit: 'cover', display: 'block' }} />
              </Box>
            )}
            {uploadError && (
              <Typography variant="caption" color="error" role="alert">
                {uploadError}
              </Typography>
            )}
            {(errors.proofMessageId ?? errors.proofFileId) && (
              <Typography variant="caption" color="error">
                {errors.proofMessageId ?? errors.proofFileId}
              </Typography>
            )}
          </Box>
          <TextField label="Nota" size="small" multiline minRows={2} value={note} onChange={(e) => setNote(e.target.value)} error={!!errors.note} helperText={errors.note ?? 'Opcional: número de operación, quién pagó…'} />
          {failure && !Object.keys(errors).length && <Alert severity="error">{failure}</Alert>}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button type="submit" form={`${titleId}-form`} variant="contained" disabled={mark.isPending}>
          {mark.isPending ? 'Guardando…' : 'Marcar pagado'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The «Pagos» of an order's detail (decisions 0083, 0084): «Enlace de pago» (Mercado Pago's
 * Checkout Pro link, to copy into the chat), «Marcar pagado» (Yape, Plin, transferencia… with
 * the amount prefilled with the total) while the order is «Creada», and every payment —
 * rejected, refunded and flagged ones said in Spanish.
 */
export function OrderPayments({ order, money }: { order: { _id: string; code: string; status: string; total: number }; money: Money }) {
  const can = usePermissions().can('catalog', 'update');
  const payments = useOrderPayments(order._id);
  const link = usePaymentLink(order._id);
  const [marking, setMarking] = useState(false);
  const [copied, setCopied] = useState(false);
  const open = order.status === 'created';
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const list = payments.data?.payload ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {open && can && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            size="small"
            startIcon={<Link />}
            disabled={link.isPending}
            onClick={() => {
              setCopied(false);
              link.mutate();
            }}
          >
            {link.isPending ? 'Creando enlace…' : 'Enlace de pago'}
          </Button>
          <Button variant="outlined" size="small" startIcon={<PriceCheck />} onClick={() => setMarking(true)}>
            Marcar pagado
          </Button>
        </Box>
      )}
      {link.isError && <Alert severity="error">{errorText(link.error, 'No se pudo crear el enlace de pago')}</Alert>}
      {link.data && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <TextField size="small" label="Enlace de pago" value={link.data.url} slotProps={{ htmlInput: { readOnly: true } }} onFocus={(e) => e.target.select()} />
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <Button size="small" startIcon={<ContentCopy />} onClick={() => copy(link.data.url)}>
              Copiar enlace
            </Button>
            <Button size="small" component="a" href={link.data.url} target="_blank" rel="noopener noreferrer">
              Abrir
            </Button>
            {copied && (
              <Typography variant="caption" color="success.main" role="status">
                Enlace copiado: pégalo en el chat del cliente
              </Typography>
            )}
          </Box>
          {link.data.sandbox && (
            <Typography variant="caption" color="text.secondary">
              Sandbox: el enlace abre un pago simulado, no se cobra a nadie.
            </Typography>
          )}
        </Box>
      )}
      {payments.isLoading && <Skeleton variant="rounded" height={56} />}
      {payments.isError && <Alert severity="warning">No se pudieron leer los pagos de la orden.</Alert>}
      {payments.isSuccess && !list.length && (
        <Typography variant="body2" color="text.secondary">
          Sin pagos registrados.
        </Typography>
      )}
      {list.length > 0 && (
        <Box component="ul" aria-label="Pagos de la orden" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {list.map((p) => (
            <PaymentItem key={p._id} p={p} money={money} />
          ))}
        </Box>
      )}
      {marking && <MarkPaidDialog open onClose={() => setMarking(false)} order={order} money={money} />}
    </Box>
  );
}
