import { type GenialInvoiceOut, genialInvoiceStatusLabels, type GenialOrderKind } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type MouseEvent, useState } from 'react';
import { ApiError, NetworkError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { downloadInvoiceFile, isSandboxLink, useInvoice, useRetryInvoice } from './api';

/** A pending invoice older than this lost its job: it may be retried (as the server allows). */
const STALE_PENDING_MS = 2 * 60_000;

const colorOf = { none: 'default', pending: 'warning', issued: 'success', failed: 'error' } as const;
const stop = (e: MouseEvent) => e.stopPropagation();
const reasonOf = (error: unknown) =>
  error instanceof ApiError ? error.messages[0] : error instanceof NetworkError ? 'No se pudo conectar: revisa tu conexión' : 'No se pudo reintentar la factura';

/** «Emitida F001-123 · PDF», «Pendiente», «Fallida: {reason}» with «Reintentar», or «Sin emitir» with «Emitir». */
export function InvoiceState({ kind, invoice, orderId, compact = true }: { kind: GenialOrderKind; invoice: GenialInvoiceOut; orderId: string; compact?: boolean }) {
  const retry = useRetryInvoice(kind);
  const can = usePermissions().can(kind === 'marketplace' ? 'marketplace' : 'ecommerce', 'update');
  const [fileError, setFileError] = useState<string>();
  const [taxId, setTaxId] = useState(invoice.customerTaxId ?? '');
  const label = genialInvoiceStatusLabels[invoice.status];
  const stale = invoice.status === 'pending' && !!invoice.updatedAt && Date.now() - new Date(invoice.updatedAt).getTime() > STALE_PENDING_MS;
  const canRetry = can && (invoice.status === 'failed' || invoice.status === 'none' || stale);
  const number = invoice.series && invoice.number ? `${invoice.series}-${invoice.number}` : '';
  const pdf = async (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setFileError(undefined);
    try {
      await downloadInvoiceFile(kind, orderId, 'pdf', `${number || 'factura'}.pdf`);
    } catch (error) {
      setFileError(reasonOf(error));
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start', minWidth: compact ? 140 : undefined }} data-testid="genial-invoice">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip size="small" label={label} color={colorOf[invoice.status]} variant={invoice.status === 'none' ? 'outlined' : 'filled'} />
        {invoice.status === 'issued' && number && <Typography variant="body2">{number}</Typography>}
        {invoice.status === 'issued' &&
          invoice.pdfUrl &&
          (isSandboxLink(invoice.pdfUrl) ? (
            <Link component="button" variant="body2" onClick={(e: MouseEvent) => void pdf(e)} aria-label={`PDF ${number}`}>
              PDF
            </Link>
          ) : (
            <Link href={invoice.pdfUrl} target="_blank" rel="noopener noreferrer" variant="body2" onClick={stop} aria-label={`PDF ${number}`}>
              PDF
            </Link>
          ))}
      </Box>
      {invoice.status === 'failed' && invoice.error && (
        <Typography variant="caption" color="error" sx={{ maxWidth: 320, whiteSpace: 'normal' }}>
          {invoice.error}
        </Typography>
      )}
      {canRetry && !compact && invoice.status === 'failed' && (
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
          onSubmit={(e) => {
            e.preventDefault();
            retry.mutate({ orderId, customerTaxId: taxId.trim() });
          }}
        >
          <TextField size="small" label="RUC / RUT / NIT del cliente" value={taxId} onChange={(e) => setTaxId(e.target.value)} helperText="Vacío: boleta sin documento" />
          <Button type="submit" size="small" variant="contained" disabled={retry.isPending}>
            Reintentar con este documento
          </Button>
        </Box>
      )}
      {canRetry && (
        <Button
          size="small"
          variant="outlined"
          disabled={retry.isPending}
          onClick={(e) => {
            e.stopPropagation();
            retry.mutate({ orderId });
          }}
        >
          {invoice.status === 'none' ? 'Emitir' : 'Reintentar'}
        </Button>
      )}
      {retry.isError && (
        <Typography variant="caption" color="error" role="alert" sx={{ maxWidth: 320, whiteSpace: 'normal' }}>
          {reasonOf(retry.error)}
        </Typography>
      )}
      {fileError && (
        <Typography variant="caption" color="error" role="alert">
          {fileError}
        </Typography>
      )}
    </Box>
  );
}

/** The «Factura» column of an orders list: the row's invoice, read with the page's others in one call. */
export function InvoiceCell({ kind, orderId, compact = true }: { kind: GenialOrderKind; orderId: string; compact?: boolean }) {
  const invoice = useInvoice(kind, orderId);
  if (invoice.isLoading) return <Skeleton width={90} />;
  if (!invoice.data) return <Typography variant="body2" color="text.secondary">—</Typography>;
  return <InvoiceState kind={kind} invoice={invoice.data} orderId={orderId} compact={compact} />;
}

/** An order's invoice where the order is shown whole (the own orders' drawer): nothing until it has one — a company without Genial sees no «Sin emitir». */
export function InvoiceIfAny({ kind, orderId }: { kind: GenialOrderKind; orderId: string }) {
  const invoice = useInvoice(kind, orderId);
  if (!invoice.data || invoice.data.status === 'none') return null;
  return <InvoiceState kind={kind} invoice={invoice.data} orderId={orderId} compact={false} />;
}
