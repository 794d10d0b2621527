import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { labelEvery, monthLabel, formatNumber, formatShare } from './model';
import { useNarrow } from './parts';
import { numberFormat } from '../../lib/number-format';

/** The charts of /metricas (x-charts, only in this page's chunk): Spanish months, es-PE numbers, legends below. */

const localeText = { noData: 'Sin datos', loading: 'Cargando…' };
const legendBelow = { legend: { position: { vertical: 'bottom', horizontal: 'center' } } } as const;

export interface MonthSeries {
  id: string;
  label: string;
  data: Array<number | null>;
  color?: string;
}

type Format = (n: number) => string;

function monthAxis(months: string[], narrow: boolean) {
  const every = labelEvery(months.length, narrow);
  return {
    scaleType: 'band' as const,
    data: months,
    valueFormatter: (m: string, ctx: { location: string }) => monthLabel(m, ctx.location === 'tooltip' ? 'long' : 'short'),
    tickLabelInterval: (_: unknown, index: number) => index % every === 0,
    tickLabelStyle: { fontSize: 12 },
  };
}

/** Months along the bottom, bars (stacked when `stacked`). */
export function MonthlyBars({ months, series, stacked = false, format = formatNumber, height, label }: { months: string[]; series: MonthSeries[]; stacked?: boolean; format?: Format; height?: number; label: string }) {
  const narrow = useNarrow();
  return (
    <Box role="img" aria-label={label} sx={{ minWidth: 0 }}>
      <BarChart
        height={height ?? (narrow ? 240 : 300)}
        localeText={localeText}
        hideLegend={series.length < 2}
        slotProps={legendBelow}
        margin={{ left: 0, right: 8 }}
        xAxis={[monthAxis(months, narrow)]}
        yAxis={[{ tickMinStep: 1, width: 44, tickNumber: narrow ? 4 : 6, valueFormatter: (v: number) => compact(v) }]}
        series={series.map((s) => ({ id: s.id, label: s.label, data: s.data, color: s.color, stack: stacked ? 'total' : undefined, valueFormatter: (v: number | null) => (v === null ? '' : format(v)) }))}
      />
    </Box>
  );
}

/** Weeks (their Monday, YYYY-MM-DD) along the bottom, bars side by side: «Ventas recuperadas». */
export function WeeklyBars({ weeks, series, label }: { weeks: string[]; series: MonthSeries[]; label: string }) {
  const narrow = useNarrow();
  const every = labelEvery(weeks.length, narrow);
  const day = new Intl.DateTimeFormat('es', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (
    <Box role="img" aria-label={label} sx={{ minWidth: 0 }}>
      <BarChart
        height={narrow ? 240 : 300}
        localeText={localeText}
        slotProps={legendBelow}
        margin={{ left: 0, right: 8 }}
        xAxis={[
          {
            scaleType: 'band' as const,
            data: weeks,
            valueFormatter: (w: string, ctx: { location: string }) => `${ctx.location === 'tooltip' ? 'Semana del ' : ''}${day.format(new Date(`${w}T00:00:00Z`))}`,
            tickLabelInterval: (_: unknown, index: number) => index % every === 0,
            tickLabelStyle: { fontSize: 12 },
          },
        ]}
        yAxis={[{ tickMinStep: 1, width: 44, tickNumber: narrow ? 4 : 6 }]}
        series={series.map((s) => ({ id: s.id, label: s.label, data: s.data, color: s.color, valueFormatter: (v: number | null) => (v === null ? '' : formatNumber(v)) }))}
      />
    </Box>
  );
}

/** Months along the bottom, one line per series. */
export function MonthlyLines({ months, series, format = formatNumber, height, label, area = false }: { months: string[]; series: MonthSeries[]; format?: Format; height?: number; label: string; area?: boolean }) {
  const narrow = useNarrow();
  return (
    <Box role="img" aria-label={label} sx={{ minWidth: 0 }}>
      <LineChart
        height={height ?? (narrow ? 220 : 280)}
        localeText={localeText}
        hideLegend={series.length < 2}
        slotProps={legendBelow}
        margin={{ left: 0, right: narrow ? 20 : 28 }}
        xAxis={[{ ...monthAxis(months, narrow), scaleType: 'point' as const }]}
        yAxis={[{ tickMinStep: 1, width: 44, tickNumber: narrow ? 4 : 6, valueFormatter: (v: number) => compact(v) }]}
        series={series.map((s) => ({ id: s.id, label: s.label, data: s.data, color: s.color, curve: 'linear' as const, area: area && series.length === 1, showMark: months.length <= 12, valueFormatter: (v: number | null) => (v === null ? '' : format(v)) }))}
      />
    </Box>
  );
}

export interface Slice {
  id: string;
  label: string;
  value: number;
  color?: string;
}

/** A donut and, under it, its slices as a list with counts and shares (read without hovering). */
export function Donut({ slices, label, testId }: { slices: Slice[]; label: string; testId?: string }) {
  const narrow = useNarrow();
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const sorted = [...slices].sort((a, b) => b.value - a.value);
  const shown = sorted.filter((s) => s.value > 0);
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 200px) minmax(0, 1fr)' }, alignItems: 'center' }}>
      <Box role="img" aria-label={label}>
        <PieChart
          height={narrow ? 180 : 200}
          hideLegend
          localeText={localeText}
          series={[{ innerRadius: narrow ? 45 : 55, paddingAngle: 1, cornerRadius: 4, data: shown.map((s) => ({ id: s.id, value: s.value, label: s.label, color: s.color })), valueFormatter: (item) => formatNumber(item.value) }]}
        />
      </Box>
      <Box component="ul" aria-label={label} data-testid={testId} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
        {sorted.map((s) => (
          <Box component="li" key={s.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid={testId ? `${testId}-${s.id}` : undefined}>
            <Box aria-hidden sx={{ width: 12, height: 12, borderRadius: '3px', bgcolor: s.color ?? 'primary.main', flex: 'none' }} />
            <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }}>
              {s.label}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {formatNumber(s.value)}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ minWidth: 44, textAlign: 'right' }}>
              {total ? formatShare(s.value / total) : '—'}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

const compactFormat = { format: (n: number) => numberFormat({ notation: 'compact', maximumFractionDigits: 1 }).format(n) };
/** Axis ticks: 1,2 mil rather than 1,200 where room is short. */
const compact = (n: number) => (Math.abs(n) >= 10_000 ? compactFormat.format(n) : formatNumber(n));
