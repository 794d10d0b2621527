import type { FacebookLabelPeopleOut, FacebookLabelRetryOut } from '@mostrador/contract';
import Replay from '@mui/icons-material/Replay';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatInstant } from '../../components/crud/cell-value';
import { RunsPanel } from '../../components/ui/runs-panel';
import { formatCount } from '../../i18n';
import { api } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { facebookLabelKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

type Failure = FacebookLabelPeopleOut['failures'][number];

/** Under the labels' keys, so the list's refresh (a sync, an edit) refreshes it too. */

/** GET /facebook-labels/people (decision 0057): how many people each page label is on, and the last refusals; kept fresh while the screen is open. */
export function useLabelPeople() {
  const { companyId } = useSession();
  return useQuery({
    queryKey: facebookLabelKeys.people(companyId),
    queryFn: ({ signal }) => api.get<FacebookLabelPeopleOut>('/facebook-labels/people', { overlay: false, notify: false, signal }),
    refetchInterval: 15_000,
  });
}

/** The «En Facebook» cell of a label: the people it is on, and what waits or was refused. */
export function LabelPeopleCell({ facebookLabelId }: { facebookLabelId?: string }) {
  const { data } = useLabelPeople();
  if (!facebookLabelId) return <Typography variant="body2" color="text.secondary">Sin id en Facebook</Typography>;
  const label = data?.labels.find((l) => l.facebookLabelId === facebookLabelId);
  const applied = label?.applied ?? 0;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }} data-testid="facebook-label-people">
      <Typography variant="body2" component="span">
        {data ? `${formatCount(applied)} ${applied === 1 ? 'persona' : 'personas'}` : '…'}
      </Typography>
      {label && label.pending > 0 && <Chip size="small" label={`${formatCount(label.pending)} por enviar`} />}
      {label && label.failed > 0 && <Chip size="small" color="warning" label={`${formatCount(label.failed)} ${label.failed === 1 ? 'rechazada' : 'rechazadas'}`} />}
    </Box>
  );
}

/** One refusal: who, which label and what Facebook said, in Spanish. */
function FailureRow({ failure, labelName }: { failure: Failure; labelName: string }) {
  return (
    <Box component="article" data-testid="facebook-label-failure" sx={{ py: 1.25, display: 'grid', gap: 0.25 }}>
      <Typography variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
        {failure.action === 'put' ? 'Poner' : 'Quitar'} «{labelName}» {failure.action === 'put' ? 'a' : 'de'} {failure.leadName ?? 'una persona'}
      </Typography>
      <Typography variant="body2" color={failure.retrying ? 'text.secondary' : 'warning.main'} sx={{ overflowWrap: 'anywhere' }}>
        {failure.reason}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {formatInstant(failure.at)} · {failure.retrying ? 'se reintentará sola' : 'no se reintentará hasta que pulses «Reintentar» o cambie la etiqueta'}
      </Typography>
    </Box>
  );
}

/**
 * Above /etiquetas-facebook: the page labels Facebook refused to put on (or take off) people,
 * newest first — the ones tried again by themselves first — and «Reintentar» for the company's.
 */
export function LabelPeoplePanel() {
  const query = useLabelPeople();
  const { data } = query;
  const { companyId } = useSession();
  const names = useQuery<{ payload: Array<{ name?: string; facebookLabelId?: string }> }>({
    queryKey: facebookLabelKeys.names(companyId),
    queryFn: ({ signal }) => api.get('/facebook-labels', { query: { limit: 200 }, overlay: false, notify: false, signal }),
    enabled: Boolean(data?.failures.length),
  });
  const nameOf = (id: string) => names.data?.payload.find((l) => l.facebookLabelId === id)?.name ?? id;
  const failures = (data?.failures ?? []).map((f, i) => ({ ...f, _id: `${f.facebookLabelId}-${i}` }));
  const applied = (data?.labels ?? []).reduce((s, l) => s + l.applied, 0);
  return (
    <RunsPanel
      title={`Etiquetas en las personas de Facebook${data ? ` · ${formatCount(applied)} ${applied === 1 ? 'puesta' : 'puestas'}` : ''}`}
      testId="facebook-label-people-panel"
      query={query}
      runs={failures}
      isActive={(f) => f.retrying}
      loadError="No se pudo cargar el estado de las etiquetas en Facebook"
      emptyMessage="Facebook no rechazó ninguna etiqueta: al poner una etiqueta enlazada a un lead de Messenger, se pone también a la persona en la página."
      emptyTestId="facebook-label-people-empty"
      finishedHeading="Rechazadas"
      moreLabel={(n) => `Ver los ${formatCount(n)} rechazos`}
      renderRun={(f) => <FailureRow key={f._id} failure={f} labelName={nameOf(f.facebookLabelId)} />}
    />
  );
}

/** «Reintentar rechazadas»: the refused puts and removals sent again now (leads › update). */
export function LabelPeopleRetryButton() {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const { can } = usePermissions();
  const { data } = useLabelPeople();
  const retry = useMutation({
    mutationFn: () => api.post<FacebookLabelRetryOut>('/facebook-labels/people/retry', undefined, { overlay: false, success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: facebookLabelKeys.people(companyId) }),
  });
  if (!can('leads', 'update') || !data?.failures.length) return null;
  return (
    <Button variant="outlined" color="warning" startIcon={<Replay />} disabled={retry.isPending} onClick={() => retry.mutate()} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
      Reintentar rechazadas
    </Button>
  );
}
