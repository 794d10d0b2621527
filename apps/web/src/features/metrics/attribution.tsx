import {
  type AttributionChatsOut,
  type AttributionGrouping,
  type AttributionModel,
  type AttributionOut,
  type AttributionRow,
  type AttributionSettingsOut,
  attributionGroupingLabels,
  attributionGroupings,
  attributionModelLabels,
  attributionModels,
  ATTRIBUTION_MAX_WINDOW_DAYS,
} from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { channelLabel } from '../../components/ui/channel-icon';
import { api } from '../../lib/api-client';
import { formatDateTime, useCompanyTimezone } from '../../lib/company-time';
import { downloadFile, saveBlob } from '../../lib/file-transfer';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { metricKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import type { MetricsQuery } from './api';
import { formatNumber, formatShare } from './model';
import { Empty, Loaded, Panel, useNarrow } from './parts';

const CHATS_PAGE = 20;

/**
 * «Atribución» in /metricas (issue 31, decisions 0096 and 0097): the funnel by ad campaign, ad,
 * massive send or agent for the window — spend, conversations, answered within 5 minutes,
 * qualified, orders, paid revenue, cost per conversation and per sale, ROAS, median time to sale,
 * negative sentiment — its CSV, and a row's conversations with links to the chat. The settings
 * (window, last or first touch) for a role that may change the company's settings.
 */
export function AttributionSection({ query, by, onBy }: { query: MetricsQuery; by: AttributionGrouping; onBy: (by: AttributionGrouping) => void }) {
  const { companyId } = useSession();
  const narrow = useNarrow();
  const [open, setOpen] = useState<AttributionRow | null>(null);
  const [downloading, setDownloading] = useState(false);
  const params = { from: query.from, to: query.to, by };
  const funnel = useQuery({
    queryKey: metricKeys.attribution(companyId, params),
    queryFn: ({ signal }) => api.get<AttributionOut>('/metrics/attribution', { query: params, overlay: false, notify: false, signal }),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  });
  const download = async () => {
    setDownloading(true);
    try {
      saveBlob(await downloadFile('/metrics/attribution/export', { query: params, fallbackName: `atribucion-${by}.csv` }));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Panel title="Atribución de ventas" subtitle="Cada orden va a la conversación anterior y, por ella, al anuncio o envío masivo que la trajo; si no hubo, es «Orgánico»" testId="attribution">
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
          <TextField
            select
            size="small"
            label="Agrupar por"
            value={by}
            onChange={(e) => {
              setOpen(null);
              onBy(e.target.value as AttributionGrouping);
            }}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 240px' } }}
          >
            {attributionGroupings.map((g) => (
              <MenuItem key={g} value={g}>
                {attributionGroupingLabels[g]}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" size="small" onClick={() => void download()} disabled={downloading}>
            {downloading ? 'Descargando…' : 'Descargar CSV'}
          </Button>
        </Box>
        <Loaded<[AttributionOut]> queries={[funnel]}>
          {(f) =>
            f.rows.every((r) => r.conversations === 0 && r.orders === 0 && !r.spend) ? (
              <Empty testId="attribution-empty">Aún no hay conversaciones ni órdenes atribuidas en este periodo.</Empty>
            ) : (
              <>
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
                  {attributionModelLabels[f.model]} · ventana de {f.windowDays} {f.windowDays === 1 ? 'día' : 'días'} · montos en {f.currency}. Toca una fila para ver sus conversaciones.
                </Typography>
                {narrow ? <FunnelCards funnel={f} onOpen={setOpen} /> : <FunnelTable funnel={f} onOpen={setOpen} />}
              </>
            )
          }
        </Loaded>
      </Panel>
      {open && <RowChats row={open} by={by} query={query} onClose={() => setOpen(null)} />}
      <SettingsCard />
    </Box>
  );
}

function useFigures(currency: string) {
  const { locale } = useCompanyMoney();
  const money = (n: number | null) => (n === null ? '—' : formatMoney(n, { currency, locale }));
  const minutes = (n: number | null) => (n === null ? '—' : n < 120 ? `${formatNumber(n)} min` : n < 2880 ? `${formatNumber(Math.round(n / 60))} h` : `${formatNumber(Math.round(n / 1440))} días`);
  const roas = (n: number | null) => (n === null ? '—' : `${n.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`);
  return { money, minutes, roas };
}

const columns = ['Inversión', 'Conversaciones', 'Resp. 5 min', 'Calificadas', 'Órdenes', 'Pagadas', 'Ingresos', 'Costo/conv.', 'Costo/venta', 'ROAS', 'Mediana a venta', 'Negativo'] as const;

function cellsOf(r: Omit<AttributionRow, 'key' | 'label' | 'campaign'>, f: ReturnType<typeof useFigures>): string[] {
  return [
    f.money(r.spend),
    formatNumber(r.conversations),
    formatNumber(r.answeredIn5),
    formatNumber(r.qualified),
    formatNumber(r.orders),
    formatNumber(r.paidOrders),
    f.money(r.revenue),
    f.money(r.costPerConversation),
    f.money(r.costPerSale),
    f.roas(r.roas),
    f.minutes(r.medianMinutesToSale),
    r.negativeShare === null ? '—' : formatShare(r.negativeShare),
  ];
}

function FunnelTable({ funnel, onOpen }: { funnel: AttributionOut; onOpen: (r: AttributionRow) => void }) {
  const figures = useFigures(funnel.currency);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Embudo de atribución">
        <TableHead>
          <TableRow>
            <TableCell>{attributionGroupingLabels[funnel.by]}</TableCell>
            {columns.map((c) => (
              <TableCell key={c} align="right">
                {c}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {funnel.rows.map((r) => (
            <TableRow key={r.key} hover onClick={() => onOpen(r)} sx={{ cursor: 'pointer' }} data-testid={`attribution-row-${r.key}`}>
              <TableCell component="th" scope="row">
                <Button size="small" onClick={() => onOpen(r)} sx={{ textTransform: 'none', p: 0, minWidth: 0, textAlign: 'left' }}>
                  {r.label}
                </Button>
                {r.campaign && (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {r.campaign}
                  </Typography>
                )}
              </TableCell>
              {cellsOf(r, figures).map((v, i) => (
                <TableCell key={columns[i]} align="right">
                  {v}
                </TableCell>
              ))}
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
              Total
            </TableCell>
            {cellsOf(funnel.total, figures).map((v, i) => (
              <TableCell key={columns[i]} align="right" sx={{ fontWeight: 600 }}>
                {v}
              </TableCell>
            ))}
          </TableRow>
        </TableBody>
      </Table>
    </Box>
  );
}

/** On a phone: a card per row, its figures two to a line. */
function FunnelCards({ funnel, onOpen }: { funnel: AttributionOut; onOpen: (r: AttributionRow) => void }) {
  const figures = useFigures(funnel.currency);
  const card = (key: string, title: string, sub: string | null, values: string[], open?: () => void) => (
    <Card key={key} variant="outlined" sx={{ p: 1.5 }} data-testid={`attribution-card-${key}`}>
      {open ? (
        <Button onClick={open} sx={{ textTransform: 'none', p: 0, minWidth: 0, fontWeight: 600, textAlign: 'left' }}>
          {title}
        </Button>
      ) : (
        <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
      )}
      {sub && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {sub}
        </Typography>
      )}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 1.5, rowGap: 0.5, m: 0, mt: 1 }}>
        {values.map((v, i) => (
          <Box key={columns[i]} sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, minWidth: 0 }}>
            <Typography component="dt" variant="caption" color="text.secondary" noWrap>
              {columns[i]}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }} noWrap>
              {v}
            </Typography>
          </Box>
        ))}
      </Box>
    </Card>
  );
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {funnel.rows.map((r) => card(r.key, r.label, r.campaign, cellsOf(r, figures), () => onOpen(r)))}
      {card('total', 'Total', null, cellsOf(funnel.total, figures))}
    </Box>
  );
}

/** The conversations behind a row, newest first, each a link to its chat. */
function RowChats({ row, by, query, onClose }: { row: AttributionRow; by: AttributionGrouping; query: MetricsQuery; onClose: () => void }) {
  const { companyId } = useSession();
  const timeZone = useCompanyTimezone();
  const { locale, currency } = useCompanyMoney();
  const [page, setPage] = useState(1);
  const params = { from: query.from, to: query.to, by, key: row.key, page, limit: CHATS_PAGE };
  const chats = useQuery({
    queryKey: metricKeys.attributionChats(companyId, params),
    queryFn: ({ signal }) => api.get<AttributionChatsOut>('/metrics/attribution/chats', { query: params, overlay: false, notify: false, signal }),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  });
  return (
    <Panel title={`Conversaciones de «${row.label}»`} testId="attribution-chats">
      <Loaded<[AttributionChatsOut]> queries={[chats]} height={120}>
        {(c) =>
          c.payload.length === 0 ? (
            <Empty testId="attribution-chats-empty">Esta fila no tiene conversaciones en el periodo (sus órdenes no vinieron de un chat).</Empty>
          ) : (
            <>
              <List dense disablePadding aria-label="Conversaciones">
                {c.payload.map((chat) => (
                  <ListItem key={chat.chatId} disableGutters sx={{ display: 'block', borderBottom: 1, borderColor: 'divider', py: 1 }}>
                    <Link component={RouterLink} to={`/chat?${new URLSearchParams({ chatId: chat.chatId })}`} sx={{ fontWeight: 600 }}>
                      {chat.contactName || 'Sin nombre'}
                    </Link>
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {channelLabel(chat.platform)} · {formatDateTime(chat.startedAt, timeZone)}
                      {chat.answeredIn5 ? ' · respondida en 5 min' : ''}
                      {chat.orders > 0 ? ` · ${chat.orders} ${chat.orders === 1 ? 'orden' : 'órdenes'} · ${formatMoney(chat.revenue, { currency, locale })} pagado` : ''}
                    </Typography>
                  </ListItem>
                ))}
              </List>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1, flexWrap: 'wrap' }}>
                <Typography variant="caption" color="text.secondary">
                  {formatNumber(c.total)} en total
                </Typography>
                <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Anteriores
                </Button>
                <Button size="small" disabled={page * CHATS_PAGE >= c.total} onClick={() => setPage(page + 1)}>
                  Siguientes
                </Button>
                <Button size="small" onClick={onClose} sx={{ ml: 'auto' }}>
                  Cerrar
                </Button>
              </Box>
            </>
          )
        }
      </Loaded>
    </Panel>
  );
}

/** The company's window and model, for a role that may change the settings; read-only otherwise. */
function SettingsCard() {
  const { companyId } = useSession();
  const permissions = usePermissions();
  const canEdit = permissions.can('settings', 'update');
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: metricKeys.attributionSettings(companyId),
    queryFn: () => api.get<AttributionSettingsOut>('/metrics/attribution/settings', { overlay: false, notify: false }),
    meta: { quiet: true },
  });
  const [draft, setDraft] = useState<{ windowDays: string; model: AttributionModel } | null>(null);
  const save = useMutation({
    mutationFn: (body: { windowDays: number; model: AttributionModel }) =>
      api.put<AttributionSettingsOut>('/metrics/attribution/settings', body, { success: 'Atribución guardada: las órdenes se atribuyen de nuevo' }),
    onSuccess: () => {
      setDraft(null);
      void client.invalidateQueries({ queryKey: metricKeys.all });
    },
  });
  const s = settings.data;
  if (!s) return null;
  const value = draft ?? { windowDays: String(s.windowDays), model: s.model };
  const days = Number(value.windowDays);
  const invalid = !Number.isInteger(days) || days < 1 || days > ATTRIBUTION_MAX_WINDOW_DAYS;
  return (
    <Panel title="Configuración de la atribución" testId="attribution-settings">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
        <TextField
          type="number"
          size="small"
          label="Ventana (días)"
          value={value.windowDays}
          disabled={!canEdit}
          error={invalid}
          helperText={invalid ? `Entre 1 y ${ATTRIBUTION_MAX_WINDOW_DAYS} días` : 'Cuánto antes de la orden cuenta un anuncio o envío'}
          onChange={(e) => setDraft({ ...value, windowDays: e.target.value })}
          slotProps={{ htmlInput: { min: 1, max: ATTRIBUTION_MAX_WINDOW_DAYS } }}
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' } }}
        />
        <TextField
          select
          size="small"
          label="Modelo"
          value={value.model}
          disabled={!canEdit}
          onChange={(e) => setDraft({ ...value, model: e.target.value as AttributionModel })}
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' } }}
        >
          {attributionModels.map((m) => (
            <MenuItem key={m} value={m}>
              {attributionModelLabels[m]}
            </MenuItem>
          ))}
        </TextField>
        {canEdit && (
          <Button variant="contained" disabled={!draft || invalid || save.isPending} onClick={() => save.mutate({ windowDays: days, model: value.model })}>
            Guardar
          </Button>
        )}
      </Box>
      {s.reattributing && (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          Atribuyendo de nuevo las órdenes con la nueva configuración…
        </Alert>
      )}
    </Panel>
  );
}
