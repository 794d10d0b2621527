import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId, useState } from 'react';

/** How many finished runs a panel shows before «Ver …». */
export const RECENT_RUNS = 3;

/**
 * A screen's runs of a long job (store syncs, Mailchimp syncs): a card with its title, the runs
 * going on first, then the last finished ones (RECENT_RUNS, all on request); loading, a load
 * error with «Reintentar», and an empty message. Each feature renders its own run.
 */
export function RunsPanel<T extends { _id: string }>({
  title,
  testId,
  query,
  runs,
  isActive,
  loadError,
  emptyMessage,
  emptyTestId,
  renderRun,
  finishedHeading,
  moreLabel,
}: {
  title: string;
  testId: string;
  /** The list's query: loading, failed, refetch. */
  query: { isLoading: boolean; isError: boolean; data?: unknown; refetch: () => unknown };
  runs: T[];
  isActive: (run: T) => boolean;
  loadError: string;
  emptyMessage: ReactNode;
  emptyTestId: string;
  renderRun: (run: T, finished: boolean) => ReactNode;
  /** A heading over the finished ones when some are going on too. */
  finishedHeading?: string;
  /** «Ver los 12 últimos»: the words of the button that shows them all. */
  moreLabel: (count: number) => string;
}) {
  const [all, setAll] = useState(false);
  const headingId = useId();
  const going = runs.filter(isActive);
  const finished = runs.filter((r) => !isActive(r));
  const shown = all ? finished : finished.slice(0, RECENT_RUNS);
  const list = { '& > article + article': { borderTop: 1, borderColor: 'divider' } };
  return (
    <Card component="section" aria-labelledby={headingId} sx={{ mb: 2, px: 2, pt: 1.5, pb: 0.5 }} data-testid={testId}>
      <Typography id={headingId} variant="h3" component="h2">
        {title}
      </Typography>
      {query.isLoading && <Skeleton variant="rounded" height={64} sx={{ my: 1.5 }} />}
      {query.isError && !query.data && (
        <Alert severity="warning" sx={{ my: 1.5 }} action={<Button onClick={() => query.refetch()}>Reintentar</Button>}>
          {loadError}
        </Alert>
      )}
      {Boolean(query.data) && runs.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1.5 }} data-testid={emptyTestId}>
          {emptyMessage}
        </Typography>
      )}
      {finishedHeading ? (
        <>
          {going.map((run) => renderRun(run, false))}
          {finished.length > 0 && going.length > 0 && (
            <Typography variant="overline" component="h3" color="text.secondary" sx={{ display: 'block', borderTop: 1, borderColor: 'divider', pt: 1 }}>
              {finishedHeading}
            </Typography>
          )}
          <Box sx={list}>{shown.map((run) => renderRun(run, true))}</Box>
        </>
      ) : (
        <Box sx={list}>{[...going.map((run) => renderRun(run, false)), ...shown.map((run) => renderRun(run, true))]}</Box>
      )}
      {finished.length > RECENT_RUNS && (
        <Box sx={{ borderTop: 1, borderColor: 'divider', py: 0.5 }}>
          <Button size="small" onClick={() => setAll((v) => !v)}>
            {all ? 'Ver menos' : moreLabel(finished.length)}
          </Button>
        </Box>
      )}
    </Card>
  );
}
