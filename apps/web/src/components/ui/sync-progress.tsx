import Sync from '@mui/icons-material/Sync';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * Where a long job stands, whatever it is called on its screen (a store sync, a Mailchimp sync, an
 * upload to a Facebook audience): waiting its turn, going, done, failed, or stopped without going
 * (registered only, cancelled).
 */
export type SyncPhase = 'queued' | 'running' | 'done' | 'failed' | 'stopped';

const phaseColors: Record<SyncPhase, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  running: 'info',
  done: 'success',
  failed: 'error',
  stopped: 'default',
};

export const isGoing = (phase: SyncPhase) => phase === 'queued' || phase === 'running';

/** Percent done; 100 once done, undefined while the total is not known yet. */
export function syncPercent(phase: SyncPhase, done: number, total: number): number | undefined {
  if (phase === 'done') return 100;
  if (total <= 0) return undefined;
  return Math.min(100, Math.round((done / total) * 100));
}

/** The job's state as a chip: outlined while it waits, with the turning icon while it goes. */
export function SyncStatusChip({ phase, label, testId }: { phase: SyncPhase; label: string; testId: string }) {
  return (
    <Chip
      size="small"
      color={phaseColors[phase]}
      variant={phase === 'queued' ? 'outlined' : 'filled'}
      icon={isGoing(phase) ? <Sync fontSize="small" /> : undefined}
      label={label}
      data-testid={testId}
    />
  );
}

/** The bar: moving while the total is not known, then how much is done; red where it failed, green once done. */
export function SyncProgressBar({ phase, done, total, label }: { phase: SyncPhase; done: number; total: number; label: string }) {
  const percent = syncPercent(phase, done, total);
  const sx = { flex: 1, height: 6, borderRadius: 3 };
  if (phase === 'failed' || (percent === undefined && !isGoing(phase))) {
    return <LinearProgress variant="determinate" color={phase === 'failed' ? 'error' : 'primary'} value={percent ?? 0} aria-label={label} sx={sx} />;
  }
  if (percent === undefined) return <LinearProgress aria-label={label} sx={sx} />;
  return (
    <LinearProgress variant="determinate" value={percent} color={phase === 'done' ? 'success' : 'primary'} aria-label={label} aria-valuetext={`${percent} %`} sx={sx} />
  );
}

/**
 * A long job as a person follows it: a line with what it is (`title`), its state and what goes
 * beside it (`aside`), then the bar with how far it got (`barText`, beside the bar) — the bar
 * left out with `bar={false}` — and under them what the screen adds (`children`: counts, why it
 * stopped, its report).
 */
export function SyncProgress({
  phase,
  statusLabel,
  statusTestId,
  done,
  total,
  barLabel,
  bar = true,
  barText,
  barTextTestId,
  title,
  aside,
  children,
}: {
  phase: SyncPhase;
  statusLabel: string;
  statusTestId: string;
  done: number;
  total: number;
  /** The bar's accessible name. */
  barLabel: string;
  bar?: boolean;
  barText?: ReactNode;
  barTextTestId?: string;
  title?: ReactNode;
  aside?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        {title && <Box sx={{ mr: 'auto', minWidth: 0 }}>{title}</Box>}
        <SyncStatusChip phase={phase} label={statusLabel} testId={statusTestId} />
        {aside}
      </Box>
      {bar && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <SyncProgressBar phase={phase} done={done} total={total} label={barLabel} />
          {barText !== undefined && (
            <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }} data-testid={barTextTestId}>
              {barText}
            </Typography>
          )}
        </Box>
      )}
      {children}
    </>
  );
}
