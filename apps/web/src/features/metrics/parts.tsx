import { METRICS_LOAD_ERROR } from '@mostrador/contract';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isCancelled } from './api';
import { formatNumber, formatShare } from './model';

/** A titled card of the screen. */
export function Panel({ title, subtitle, children, testId }: { title: string; subtitle?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card component="section" aria-label={title} sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {subtitle && (
        <Typography variant="body2" color="text.secondary">
          {subtitle}
        </Typography>
      )}
      <Box sx={{ mt: 1.5 }}>{children}</Box>
    </Card>
  );
}

/** One headline figure. */
export function Stat({ label, value, hint, testId, accent, text = false }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string; accent?: string; /** A word rather than a number: a smaller type. */ text?: boolean }) {
  return (
    <Card sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0, ...(accent ? { borderTop: '4px solid', borderTopColor: accent } : {}) }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary" component="p">
        {label}
      </Typography>
      {/* a phone's half-width box fits «USD 16,808.05» at this size: a figure breaks between the currency and the number, never inside the number */}
      <Typography
        variant={text ? 'h6' : 'h5'}
        component="p"
        sx={{ fontWeight: 700, mt: 0.5, overflowWrap: 'break-word', lineHeight: 1.3, fontSize: text ? { xs: '1.05rem', sm: '1.25rem' } : { xs: '1.2rem', sm: '1.5rem' }, fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId ? `${testId}-value` : undefined}
      >
        {value}
      </Typography>
      {hint && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
          {hint}
        </Typography>
      )}
    </Card>
  );
}

/** Headline figures: two a row on a phone, as many as fit on a desk. */
export function StatGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Box role="group" aria-label={label} sx={{ display: 'grid', gap: { xs: 1, sm: 2 }, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(180px, 1fr))' } }}>
      {children}
    </Box>
  );
}

/** Charts side by side on a desk, one under the other on a phone. */
export function Columns({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gap: { xs: 2, sm: 3 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>{children}</Box>;
}

export function Stack({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gap: { xs: 2, sm: 3 }, minWidth: 0 }}>{children}</Box>;
}

/** The screen says a window is empty instead of drawing a flat line. */
export function Empty({ children, testId = 'metric-empty' }: { children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ py: 4, display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center' }} data-testid={testId}>
      <InsightsOutlined fontSize="large" />
      <Typography>{children}</Typography>
    </Box>
  );
}

/** A narrow screen (a phone): fewer ticks, smaller charts. */
export function useNarrow(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'));
}

/**
 * What one or more calls show: a skeleton while loading, SPEC §8's message with «Reintentar» on
 * a failure, nothing for a request the page cancelled, and `children` with the answers.
 */
export function Loaded<T extends unknown[]>({
  queries,
  height = 240,
  children,
}: {
  queries: { [K in keyof T]: UseQueryResult<T[K]> };
  height?: number;
  children: (...data: T) => ReactNode;
}) {
  const list = queries as UseQueryResult<unknown>[];
  const failed = list.filter((q) => q.isError && !isCancelled(q.error));
  if (failed.length > 0) {
    return (
      <Alert
        severity="error"
        data-testid="metric-error"
        action={
          <Button color="inherit" size="small" onClick={() => failed.forEach((q) => void q.refetch())}>
            Reintentar
          </Button>
        }
      >
        {METRICS_LOAD_ERROR}
      </Alert>
    );
  }
  if (list.some((q) => q.isError)) return null; // cancelled: said nothing (SPEC §8)
  if (list.some((q) => q.data === undefined)) return <Skeleton variant="rounded" height={height} data-testid="metric-loading" />;
  const stale = list.some((q) => q.isPlaceholderData);
  return (
    <Box sx={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms', minWidth: 0 }} aria-busy={stale || undefined}>
      {children(...(list.map((q) => q.data) as T))}
    </Box>
  );
}

/** Labelled counts as bars of a list (motives, origins, categories): long Spanish labels read well on a phone. */
export function CountBars({ items, label, color = 'primary', testId, sorted = true }: { items: Array<{ key: string; label: string; count: number }>; label: string; color?: 'primary' | 'error' | 'success' | 'secondary' | 'info' | 'warning'; testId?: string; sorted?: boolean }) {
  const total = items.reduce((sum, i) => sum + i.count, 0);
  const max = Math.max(1, ...items.map((i) => i.count));
  return (
    <Box component="ul" aria-label={label} data-testid={testId} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.25 }}>
      {(sorted ? [...items].sort((a, b) => b.count - a.count) : items)
        .map((item) => (
          <Box component="li" key={item.key} sx={{ display: 'grid', gap: 0.5 }} data-testid={testId ? `${testId}-${item.key}` : undefined}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
              <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }}>
                {item.label}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {formatNumber(item.count)}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ minWidth: 44, textAlign: 'right' }}>
                {total ? formatShare(item.count / total) : '—'}
              </Typography>
            </Box>
            <LinearProgress variant="determinate" value={(item.count / max) * 100} color={color} aria-hidden sx={{ height: 8, borderRadius: 4 }} />
          </Box>
        ))}
    </Box>
  );
}
