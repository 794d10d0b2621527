import {
  type TeamGrouping,
  type TeamMeasure,
  type TeamMetricsOut,
  type TeamMetricsRow,
  type TeamSlaSettingsIn,
  type TeamSlaSettingsOut,
  teamGroupingLabels,
  teamGroupings,
  teamMeasureLabels,
  teamMeasures,
} from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../lib/api-client';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { usePermissions } from '../../lib/permissions';
import { metricKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import type { MetricsQuery } from './api';
import { formatNumber, formatShare } from './model';
import { Empty, Loaded, Panel, Stack, useNarrow } from './parts';
import { SaveCancel } from '../../components/ui/save-cancel';

/** A duration in seconds as people say it: «45 s», «3 min», «1 h 20 min», «2 d 3 h»; «—» when there is none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

const groupNoun: Record<TeamGrouping, string> = { agent: 'agente', team: 'equipo', channel: 'canal', label: 'etiqueta' };

/** The figures of one row, in the order both layouts show them. */
function figuresOf(r: TeamMetricsRow, revenue: string) {
  return [
    { key: 'chats', label: 'Chats atendidos', value: formatNumber(r.chats) },
    { key: 'first-median', label: 'Primera respuesta (mediana)', value: formatDuration(r.firstResponseMedian) },
    { key: 'first-p90', label: 'Primera respuesta (p90)', value: formatDuration(r.firstResponseP90) },
    { key: 'first-sla', label: 'Dentro del objetivo', value: formatShare(r.firstResponseWithinTarget) },
    { key: 'resolution-median', label: 'Resolución (mediana)', value: formatDuration(r.resolutionMedian) },
    { key: 'resolution-p90', label: 'Resolución (p90)', value: formatDuration(r.resolutionP90) },
    { key: 'resolution-sla', label: 'Resueltos en objetivo', value: formatShare(r.resolutionWithinTarget) },
    { key: 'reopenings', label: 'Reaperturas', value: formatNumber(r.reopenings) },
    { key: 'sales', label: 'Ventas cerradas', value: formatNumber(r.salesClosed) },
    { key: 'revenue', label: 'Ingresos', value: revenue },
  ];
}

function TeamTable({ data }: { data: TeamMetricsOut }) {
  const narrow = useNarrow();
  const money = useCompanyMoney();
  const revenueOf = (r: TeamMetricsRow) => (r.revenue.length ? r.revenue.map((x) => formatMoney(x.amount, { currency: x.currency, locale: money.locale })).join(' · ') : '—');
  const title = teamGroupingLabels[data.groupBy];
  if (narrow) {
    // a phone: one card per row, its figures in two columns
    return (
      <Box component="ul" aria-label={`Por ${groupNoun[data.groupBy]}`} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {data.rows.map((r) => (
          <Card component="li" key={r.key ?? 'none'} variant="outlined" sx={{ p: 1.5 }} data-testid={`team-row-${r.key ?? 'none'}`}>
            <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {r.name}
            </Typography>
            <Box component="dl" sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1 }}>
              {figuresOf(r, revenueOf(r)).map((f) => (
                <Box key={f.key} sx={{ minWidth: 0 }}>
                  <Typography component="dt" variant="caption" color="text.secondary">
                    {f.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }} data-testid={`team-${r.key ?? 'none'}-${f.key}`}>
                    {f.value}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Card>
        ))}
      </Box>
    );
  }
  const headers = figuresOf(data.rows[0] as TeamMetricsRow, '');
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={`Por ${groupNoun[data.groupBy]}`}>
        <TableHead>
          <TableRow>
            <TableCell>{title}</TableCell>
            {headers.map((h) => (
              <TableCell key={h.key} align="right">
                {h.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.rows.map((r) => (
            <TableRow key={r.key ?? 'none'} data-testid={`team-row-${r.key ?? 'none'}`}>
              <TableCell component="th" scope="row">
                {r.name}
              </TableCell>
              {figuresOf(r, revenueOf(r)).map((f) => (
                <TableCell key={f.key} align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-testid={`team-${r.key ?? 'none'}-${f.key}`}>
                  {f.value}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The company's targets: read by anyone who sees the metrics, changed by whoever may change the settings (an admin). */
function TargetsPanel({ settings }: { settings: TeamSlaSettingsOut }) {
  const { companyId } = useSession();
  const client = useQueryClient();
  const canEdit = usePermissions().can('settings', 'update');
  const [form, setForm] = useState<{ firstResponseMinutes: string; resolutionHours: string; measure: TeamMeasure } | null>(null);
  const save = useMutation({
    mutationFn: (body: TeamSlaSettingsIn) => api.put<TeamSlaSettingsOut>('/metrics/team/settings', body, { success: 'Objetivos guardados', notify: false }),
    onSuccess: () => {
      setForm(null);
      void client.invalidateQueries({ queryKey: metricKeys.teamSettings(companyId) });
      void client.invalidateQueries({ queryKey: ['metrics', companyId, 'team'] });
    },
  });
  const error = save.error instanceof ApiError ? save.error.messages[0] : save.error ? 'No se pudieron guardar los objetivos. Inténtalo de nuevo.' : undefined;
  const summary = `Primera respuesta en ${formatNumber(settings.firstResponseMinutes)} min · resolución en ${formatNumber(settings.resolutionHours)} h · ${teamMeasureLabels[settings.measure].toLowerCase()}`;
  return (
    <Panel title="Objetivos de atención" subtitle={summary} testId="team-targets">
      {!form ? (
        canEdit && (
          <Button
            size="small"
            variant="outlined"
            onClick={() => setForm({ firstResponseMinutes: String(settings.firstResponseMinutes), resolutionHours: String(settings.resolutionHours), measure: settings.measure })}
          >
            Editar objetivos
          </Button>
        )
      ) : (
        <Box
          component="form"
          aria-label="Objetivos de atención"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ firstResponseMinutes: Number(form.firstResponseMinutes), resolutionHours: Number(form.resolutionHours), measure: form.measure });
          }}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}
        >
          <TextField
            size="small"
            type="number"
            label="Primera respuesta (minutos)"
            value={form.firstResponseMinutes}
            onChange={(e) => setForm({ ...form, firstResponseMinutes: e.target.value })}
            slotProps={{ htmlInput: { step: 1, inputMode: 'numeric' } }}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' } }}
          />
          <TextField
            size="small"
            type="number"
            label="Resolución (horas)"
            value={form.resolutionHours}
            onChange={(e) => setForm({ ...form, resolutionHours: e.target.value })}
            slotProps={{ htmlInput: { step: 1, inputMode: 'numeric' } }}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 180px' } }}
          />
          <TextField
            select
            size="small"
            label="Cómo se mide el tiempo"
            value={form.measure}
            onChange={(e) => setForm({ ...form, measure: e.target.value as TeamMeasure })}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 240px' } }}
          >
            {teamMeasures.map((m) => (
              <MenuItem key={m} value={m}>
                {teamMeasureLabels[m]}
              </MenuItem>
            ))}
          </TextField>
          <SaveCancel disabled={save.isPending} onCancel={() => setForm(null)} />
          {error && (
            <Alert severity="error" sx={{ flex: '1 1 100%' }}>
              {error}
            </Alert>
          )}
        </Box>
      )}
    </Panel>
  );
}

/**
 * «Equipo» (issue 31, decision 0094): how the team answers in the window — per agent, team,
 * channel or label — and the company's targets the shares are measured against.
 */
export function TeamSection({ query }: { query: MetricsQuery }) {
  const { companyId } = useSession();
  const narrow = useNarrow();
  const [groupBy, setGroupBy] = useState<TeamGrouping>('agent');
  const params = { from: query.from, to: query.to, groupBy };
  const report = useQuery({
    queryKey: metricKeys.team(companyId, params),
    queryFn: ({ signal }) => api.get<TeamMetricsOut>(`/metrics/team?${new URLSearchParams(params)}`, { overlay: false, notify: false, signal }),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  });
  const settings = useQuery({
    queryKey: metricKeys.teamSettings(companyId),
    queryFn: () => api.get<TeamSlaSettingsOut>('/metrics/team/settings', { overlay: false, notify: false }),
    meta: { quiet: true },
  });
  return (
    <Stack>
      <Loaded<[TeamSlaSettingsOut]> queries={[settings]} height={96}>
        {(s) => <TargetsPanel settings={s} />}
      </Loaded>
      <Panel
        title="Cómo responde el equipo"
        subtitle="Solo cuenta la respuesta de una persona: no los bots, las reglas, los envíos masivos ni el mensaje de ausencia."
        testId="team-report"
      >
        <Box sx={{ mb: 2 }}>
          {narrow ? (
            <TextField select size="small" fullWidth label="Agrupar por" value={groupBy} onChange={(e) => setGroupBy(e.target.value as TeamGrouping)}>
              {teamGroupings.map((g) => (
                <MenuItem key={g} value={g}>
                  {teamGroupingLabels[g]}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <ToggleButtonGroup size="small" exclusive value={groupBy} onChange={(_, v: TeamGrouping | null) => v && setGroupBy(v)} aria-label="Agrupar por">
              {teamGroupings.map((g) => (
                <ToggleButton key={g} value={g}>
                  {teamGroupingLabels[g]}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          )}
        </Box>
        <Loaded<[TeamMetricsOut]> queries={[report]} height={240}>
          {(data) =>
            data.rows.length === 0 ? (
              <Empty testId="team-empty">No hubo conversaciones en estas fechas. Cuando tus clientes escriban y el equipo responda, verás aquí sus tiempos.</Empty>
            ) : (
              <TeamTable data={data} />
            )
          }
        </Loaded>
      </Panel>
    </Stack>
  );
}
