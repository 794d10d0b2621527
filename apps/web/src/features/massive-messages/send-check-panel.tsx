import { massSendMessages, type SendCheckOut, templateCategoryLabels, whatsappRates } from '@mostrador/contract';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { type ReactNode, useId, useState } from 'react';
import { formatCount, numberFormat } from '../../lib/number-format';

/**
 * The pre-send check of a massive send or a campaign (decision 0043), the same everywhere:
 * who gets it out of the audience, who is left out and why (with a sample), the 24-hour
 * window, the line's daily limit, what blocks the send and the estimated cost.
 */

export { formatCount };
export const people = (n: number) => `${formatCount(n)} ${n === 1 ? 'persona' : 'personas'}`;

/** An amount in the check's currency, as the company writes it (S/ 12.30 in Perú, $ 1.990 in Chile). */
export function formatAmount(amount: number, currency: string, fractionDigits?: number): string {
  try {
    return numberFormat({ style: 'currency', currency, ...(fractionDigits !== undefined ? { maximumFractionDigits: fractionDigits } : {}) }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** `2025-07-01` → «1 de julio de 2025». */
function day(iso: string): string {
  const date = new Date(`${iso.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('es-PE', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const categoryLabel = (c: string) => templateCategoryLabels[c as keyof typeof templateCategoryLabels] ?? c;
const marketLabel = (m: string) => whatsappRates[m]?.label ?? m;

function Stat({ label, value, testId, tone }: { label: string; value: ReactNode; testId: string; tone?: 'success' | 'warning' }) {
  return (
    <Box sx={{ minWidth: 72, flex: '1 1 72px', maxWidth: 160 }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="h6" sx={{ m: 0, lineHeight: 1.3 }} color={tone ? `${tone}.main` : 'text.primary'} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

export interface SendCheckPanelProps {
  check?: SendCheckOut;
  /** Asking (or waiting for the form to settle): the figures shown may be of the form as it was. */
  loading?: boolean;
  /** Why the check failed, in Spanish. */
  error?: string;
  /** Shown before anything is checked (choose an audience and a message). */
  placeholder?: ReactNode;
  /** The heading's level inside its page. */
  title?: string;
}

/** The check as a business owner reads it, top to bottom: blocking, who gets it, the limit, the cost. */
export function SendCheckPanel({ check, loading, error, placeholder, title = 'Revisión previa' }: SendCheckPanelProps) {
  const headingId = useId();
  const [sampleOpen, setSampleOpen] = useState(false);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));

  return (
    <Box component="section" aria-labelledby={headingId} aria-busy={loading || undefined} sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
      <Typography id={headingId} variant="h6" component="h2">
        {title}
      </Typography>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label="Revisando el envío" />}</Box>
      {error && <Alert severity="error">{error}</Alert>}
      {!check && !error && (
        <Typography variant="body2" color="text.secondary">
          {placeholder ?? (loading ? 'Revisando…' : 'Elige una audiencia y un mensaje para ver a quién le llega y cuánto cuesta.')}
        </Typography>
      )}
      {check && (
        <Box sx={{ display: 'grid', gap: 1.5, opacity: loading ? 0.6 : 1, transition: 'opacity 120ms' }} data-testid="send-check">
          {check.blocking && (
            <Alert severity="error" data-testid="check-blocking">
              {check.blocking}
            </Alert>
          )}
          <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, m: 0 }} aria-label="A quiénes les llega">
            <Stat label="Lo reciben" value={formatCount(check.queued)} testId="check-queued" tone={check.queued > 0 ? 'success' : undefined} />
            <Stat label="Audiencia" value={formatCount(check.audience)} testId="check-audience" />
            <Stat label="Quedan fuera" value={formatCount(check.audience - check.queued)} testId="check-skipped" tone={check.audience - check.queued > 0 ? 'warning' : undefined} />
          </Box>
          <Typography variant="body2" data-testid="check-summary">
            {check.audience === 0
              ? 'La audiencia no tiene personas ahora.'
              : `Le llega a ${people(check.queued)} de ${formatCount(check.audience)}: ${formatCount(check.insideWindow)} dentro de la ventana de 24 h (escribieron hace menos de un día) y ${formatCount(check.outsideWindow)} fuera de ella (solo con plantilla aprobada).`}
          </Typography>

          {check.skipped.length > 0 && (
            <Box>
              <Typography variant="subtitle2" component="h3">
                Por qué quedan fuera
              </Typography>
              <Box component="ul" aria-label="Razones de los omitidos" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.25 }}>
                {check.skipped.map((s) => (
                  <Typography component="li" variant="body2" key={s.reason}>
                    <Box component="span" sx={{ fontWeight: 600 }}>
                      {formatCount(s.count)}
                    </Box>{' '}
                    · {s.reason}
                  </Typography>
                ))}
              </Box>
              {check.skippedSample.length > 0 && (
                <>
                  <Button size="small" onClick={() => setSampleOpen((o) => !o)} endIcon={sampleOpen ? <ExpandLess /> : <ExpandMore />} aria-expanded={sampleOpen} sx={{ mt: 0.5, ml: -0.5 }}>
                    {sampleOpen ? 'Ocultar ejemplos' : `Ver a quiénes (${formatCount(check.skippedSample.length)} de ${formatCount(check.audience - check.queued)})`}
                  </Button>
                  <Collapse in={sampleOpen} unmountOnExit>
                    <Box component="ul" aria-label="Ejemplos de omitidos" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.75, mt: 0.5 }}>
                      {check.skippedSample.map((p) => (
                        <Box component="li" key={p.cleanLeadId} sx={{ borderLeft: 3, borderColor: 'warning.light', pl: 1, minWidth: 0 }}>
                          <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                            {p.name}
                            {p.telefono && (
                              <Typography component="span" variant="body2" color="text.secondary">
                                {` · +${p.telefono}`}
                              </Typography>
                            )}
                          </Typography>
                          <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                            {p.reason}
                          </Typography>
                        </Box>
                      ))}
                    </Box>
                  </Collapse>
                </>
              )}
            </Box>
          )}

          <DailyLimit check={check} />
          <Cost check={check} narrow={narrow} />
        </Box>
      )}
    </Box>
  );
}

function DailyLimit({ check }: { check: SendCheckOut }) {
  const { dailyLimit: d } = check;
  const text = !d.known
    ? massSendMessages.limitUnknown
    : d.limit === undefined
      ? `Límite diario de la línea: sin límite de personas fuera de la ventana de 24 h · usadas hoy: ${formatCount(d.used)}`
      : `Límite diario de la línea: ${formatCount(d.limit)} personas fuera de la ventana de 24 h · usadas hoy: ${formatCount(d.used)}`;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Typography variant="body2" color="text.secondary" data-testid="check-daily-limit">
        {text}
      </Typography>
      {d.over > 0 && (
        <Alert severity="warning" data-testid="check-over-limit">
          {`${massSendMessages.overLimit(d.over)}. Envía a menos personas o espera.`}
        </Alert>
      )}
    </Box>
  );
}

function Cost({ check, narrow }: { check: SendCheckOut; narrow: boolean }) {
  const { cost } = check;
  const money = (n: number) => formatAmount(n, cost.currency);
  const rate = (n: number) => formatAmount(n, cost.currency, 4);
  const note = `Estimado con la tarifa de Meta del ${day(cost.ratesAsOf)} y un tipo de cambio de referencia (1 USD = ${formatAmount(cost.usdRate, cost.currency, 4)}); Meta cobra solo los mensajes entregados.`;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="h3">
          Costo estimado
        </Typography>
        <Typography variant="h6" component="p" data-testid="check-cost-total">
          {money(cost.total)}
        </Typography>
      </Box>
      {cost.lines.length > 0 &&
        (narrow ? (
          <Box component="ul" aria-label="Costo por categoría y país" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
            {cost.lines.map((l) => (
              <Box component="li" key={`${l.category}-${l.market}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1, display: 'grid', gap: 0.25 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>{`${categoryLabel(l.category)} · ${marketLabel(l.market)}`}</Typography>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {money(l.amount)}
                  </Typography>
                </Box>
                <Typography variant="caption" color="text.secondary">{`${formatCount(l.count)} mensajes × ${rate(l.rate)}`}</Typography>
              </Box>
            ))}
          </Box>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Costo por categoría y país" sx={{ '& th, & td': { px: 1 }, '& th:first-of-type, & td:first-of-type': { pl: 0 }, '& th:last-of-type, & td:last-of-type': { pr: 0 } }}>
              <TableHead>
                <TableRow>
                  <TableCell>Categoría</TableCell>
                  <TableCell>País</TableCell>
                  <TableCell align="right">Mensajes × tarifa</TableCell>
                  <TableCell align="right">Importe</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {cost.lines.map((l) => (
                  <TableRow key={`${l.category}-${l.market}`}>
                    <TableCell>{categoryLabel(l.category)}</TableCell>
                    <TableCell>{marketLabel(l.market)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{`${formatCount(l.count)} × ${rate(l.rate)}`}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{money(l.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        ))}
      {cost.free > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="check-cost-free">
          {`${formatCount(cost.free)} ${cost.free === 1 ? 'mensaje va' : 'mensajes van'} sin costo (texto dentro de la ventana de 24 h o plantilla de utilidad dentro de ella).`}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" data-testid="check-cost-note">
        {note}
      </Typography>
    </Box>
  );
}
