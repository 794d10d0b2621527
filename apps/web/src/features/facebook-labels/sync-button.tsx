import type { FacebookLabelSyncOut } from '@mostrador/contract';
import Sync from '@mui/icons-material/Sync';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { resourceKeys } from '../../lib/query-keys';

/**
 * /etiquetas-facebook «Sincronizar con Facebook» (decision 0057): the page's labels and the
 * company's made one list, both ways; the answer says what moved (or that they already match),
 * a refusal says what to fix (the page's terms, its token).
 */
export function FacebookLabelSyncButton() {
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const sync = useMutation({
    mutationFn: () => api.post<FacebookLabelSyncOut>('/facebook-labels/sync', undefined, { overlay: false, success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resourceKeys('facebook-labels').all }),
  });
  if (!can('leads', 'update')) return null;
  return (
    <Button
      variant="outlined"
      startIcon={sync.isPending ? <CircularProgress size={16} /> : <Sync />}
      disabled={sync.isPending}
      onClick={() => sync.mutate()}
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    >
      {sync.isPending ? 'Sincronizando…' : 'Sincronizar con Facebook'}
    </Button>
  );
}
