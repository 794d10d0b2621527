import { LEADS_SUMMARY_MAX_MONTHS, type LeadStatus, leadStatuses, leadStatusLabels } from '@mostrador/contract';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Theme, useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ChannelIcon, channelColor, channelLabel } from '../../components/ui/channel-icon';
import { PageHeader } from '../../components/ui/page-header';
import { formatCount } from '../../i18n';
import { useSession } from '../../lib/session';
import { leadsApi } from './api';
import { statusPath } from './buckets';
import { dayStartIso, rangeError } from './lead-filters';
import { chartMonths, defaultRange, monthLabel, monthlySeries, monthsBetween } from './summary-model';
import { leadQueryKeys } from '../../lib/query-keys';

/** SPEC §8: what a metric screen says when its data did not load. */
const METRIC_ERROR = 'Error al cargar los datos. Por favor, intente nuevamente.';

const chartLocale = { noData: 'Sin datos', loading: 'Cargando…' };

function statusColor(status: LeadStatus, palette: Theme['palette']): string {
  switch (status) {
    case 'sin-asignar':
      return palette.grey[500];
    case 're-conectar':
      return palette.warning.main;
    case 'informado-al-agente':
      return palette.info.main;
    case 'compra-realizada':
      return palette.success.main;
    case 'compra-fallida':
      return palette.error.main;
  }
}

function Panel({ title, children, sx }: { title: string; children: ReactNode; sx?: object }) {
  return (
    <Card component="section" aria-label={title} sx={{ p: 2, minWidth: 0, ...sx }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Card>
  );
}

/** /resumen-leads: leads per stage (cards to each bucket), per channel and per month and channel. */
export function LeadSummaryPage() {
  const theme = useTheme();
  const { companyId } = useSession();
  const [params, setParams] = useSearchParams();
  const fallback = defaultRange();
  const from = params.get('desde') || fallback.from;
  const to = params.get('hasta') || fallback.to;
  const invalid =
    rangeError({ from, to }) ??
    (monthsBetween(from, to).length > LEADS_SUMMARY_MAX_MONTHS ? `El período puede abarcar hasta ${LEADS_SUMMARY_MAX_MONTHS} meses` : undefined);
  const query = { from: dayStartIso(from), to: dayStartIso(to, 1) };
  const summary = useQuery({
    queryKey: leadQueryKeys.summary({ companyId, ...query }),
    queryFn: ({ signal }) => leadsApi.summary(query, signal),
    enabled: !invalid,
    placeholderData: keepPreviousData,
  });
  const setRange = (changes: { desde?: string; hasta?: string }) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });

  const data = summary.data;
  const byStatus = new Map(data?.byStatus.map((s) => [s.status, s.count]));
  const months = data ? chartMonths(data, invalid ? [] : monthsBetween(from, to)) : [];
  const series = data ? monthlySeries(data, months) : [];
  const channels = (data?.byPlatform ?? []).filter((p) => p.count > 0).sort((a, b) => b.count - a.count);

  return (
    <>
      <PageHeader title="Resumen de leads" subtitle="Cuántos leads llegaron en el período, por etapa, por canal y por mes" />
      <Card sx={{ p: 2, mb: 3, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
        <TextField
          type="date"
          size="small"
          label="Desde"
          value={from}
          onChange={(event) => setRange({ desde: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: { xs: '1 1 140px', sm: '0 1 180px' } }}
        />
        <TextField
          type="date"
          size="small"
          label="Hasta"
          value={to}
          onChange={(event) => setRange({ hasta: event.target.value })}
          error={!!invalid}
          helperText={invalid}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: { xs: '1 1 140px', sm: '0 1 180px' } }}
        />
        <Button onClick={() => setRange({ desde: undefined, hasta: undefined })} sx={{ alignSelf: 'center' }}>
          Últimos 6 meses
        </Button>
      </Card>

      {summary.isError && !invalid && (
        <Alert
          severity="error"
          sx={{ mb: 3 }}
          action={
            <Button color="inherit" size="small" onClick={() => summary.refetch()}>
              Reintentar
            </Button>
          }
          data-testid="metric-error"
        >
          {METRIC_ERROR}
        </Alert>
      )}

      {summary.isLoading && <Skeleton variant="rounded" height={360} />}

      {data && !summary.isError && (
        <Box sx={{ display: 'grid', gap: 3, opacity: summary.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <Box component="section" aria-label="Leads por etapa" sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))' }}>
            <Card sx={{ bgcolor: 'primary.main', color: 'primary.contrastText' }}>
              <CardContent>
                <Typography variant="body2" sx={{ opacity: 0.85 }}>
                  Total de leads
                </Typography>
                <Typography variant="h4" component="p" sx={{ fontWeight: 700 }} data-testid="summary-total">
                  {formatCount(data.total)}
                </Typography>
              </CardContent>
            </Card>
            {leadStatuses.map((status) => (
              <Card key={status} sx={{ borderTop: 4, borderColor: statusColor(status, theme.palette) }}>
                <CardActionArea component={RouterLink} to={statusPath(status)} sx={{ height: '100%' }} data-testid={`summary-status-${status}`}>
                  <CardContent>
                    <Typography variant="body2" color="text.secondary">
                      {leadStatusLabels[status]}
                    </Typography>
                    <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
                      {formatCount(byStatus.get(status) ?? 0)}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            ))}
          </Box>

          {data.total === 0 ? (
            <Card sx={{ py: 6, display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center' }} data-testid="summary-empty">
              <InsightsOutlined fontSize="large" />
              <Typography>No hay leads en este período</Typography>
            </Card>
          ) : (
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' } }}>
              <Panel title="Por canal">
                <PieChart
                  height={220}
                  hideLegend
                  localeText={chartLocale}
                  series={[
                    {
                      innerRadius: 55,
                      paddingAngle: 1,
                      cornerRadius: 4,
                      data: channels.map((c) => ({ id: c.platform, value: c.count, label: channelLabel(c.platform), color: channelColor(c.platform) })),
                      valueFormatter: (item) => formatCount(item.value),
                    },
                  ]}
                />
                <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, mt: 1, display: 'grid', gap: 0.5 }} aria-label="Leads por canal">
                  {channels.map((c) => (
                    <Box component="li" key={c.platform} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <ChannelIcon platform={c.platform} decorative fontSize="small" />
                      <Typography variant="body2" sx={{ flex: 1 }}>
                        {channelLabel(c.platform)}
                      </Typography>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {formatCount(c.count)}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              </Panel>
              <Panel title="Por mes y canal">
                <BarChart
                  height={320}
                  localeText={chartLocale}
                  xAxis={[{ scaleType: 'band', data: months, valueFormatter: (m: string, ctx) => monthLabel(m, ctx.location === 'tooltip' ? 'long' : 'short') }]}
                  yAxis={[{ tickMinStep: 1, width: 48 }]}
                  series={series.map((s) => ({
                    id: s.platform,
                    data: s.data,
                    label: channelLabel(s.platform),
                    stack: 'total',
                    color: channelColor(s.platform),
                    valueFormatter: (v: number | null) => (v === null ? '' : formatCount(v)),
                  }))}
                />
              </Panel>
            </Box>
          )}
        </Box>
      )}
    </>
  );
}

export default LeadSummaryPage;
