import type { MetaCatalogOut } from '@mostrador/contract';
import SyncIcon from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { metaCatalogKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

export const metaCatalogApi = {
  get: () => api.get<MetaCatalogOut>('/meta-catalog', { overlay: false, notify: false }),
  save: (catalogId: string) => api.put<MetaCatalogOut>('/meta-catalog', { catalogId }, { overlay: false, success: 'Catálogo guardado' }),
  sync: () => api.post<MetaCatalogOut>('/meta-catalog/sync', undefined, { overlay: false }),
};

export const metaCatalogTexts = {
  title: 'Catálogo de Meta',
  subtitle: 'Los productos que tus agentes pueden enviar por WhatsApp desde el chat',
  catalogId: 'Id del catálogo de Meta',
  catalogHelp: 'Administrador de comercio → Configuración del catálogo; el catálogo debe estar conectado a la línea',
  save: 'Guardar',
  sync: 'Sincronizar catálogo',
  running: 'Sincronizando…',
  noLine: 'Conecta primero la línea de WhatsApp.',
  accepted: (n: number) => `${n} aceptados por Meta`,
  failed: (n: number) => `${n} con errores`,
  progress: (done: number, total: number) => `${done} de ${total} cambios enviados`,
  errorsTitle: 'Productos que Meta no tiene',
} as const;

/**
 * The WhatsApp line's Meta commerce catalogue (decision 0086): its id, «Sincronizar catálogo» with
 * its progress while the job runs, and the products Meta refused, each with its reason in Spanish.
 */
export function MetaCatalogCard() {
  const { companyId } = useSession();
  const permissions = usePermissions();
  const canSave = permissions.can('catalog', 'update');
  const queryClient = useQueryClient();
  const key = metaCatalogKeys.list(companyId);
  const query = useQuery({
    queryKey: key,
    queryFn: metaCatalogApi.get,
    refetchInterval: (q) => (q.state.data?.sync?.status === 'running' ? 1000 : false),
    meta: { quiet: true },
  });
  const [draft, setDraft] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const value = draft ?? query.data?.catalogId ?? '';
  const onError = (error: unknown) => setProblem(error instanceof ApiError ? error.messages[0] : 'No se pudo completar');
  const save = useMutation({
    mutationFn: (id: string) => metaCatalogApi.save(id),
    onSuccess: (data) => {
      setDraft(undefined);
      setProblem(undefined);
      queryClient.setQueryData(key, data);
    },
    onError,
  });
  const sync = useMutation({
    mutationFn: metaCatalogApi.sync,
    onSuccess: (data) => {
      setProblem(undefined);
      queryClient.setQueryData(key, data);
    },
    onError,
  });
  const data = query.data;
  const run = data?.sync;
  const running = run?.status === 'running';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) save.mutate(value.trim());
  };

  return (
    <Card data-testid="meta-catalog-card">
      <CardHeader title={metaCatalogTexts.title} subheader={metaCatalogTexts.subtitle} slotProps={{ title: { variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>
        {data && !data.hasLine ? (
          <Alert severity="info">{metaCatalogTexts.noLine}</Alert>
        ) : (
          <Stack spacing={2}>
            <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
              <TextField
                size="small"
                label={metaCatalogTexts.catalogId}
                value={value}
                onChange={(e) => setDraft(e.target.value)}
                helperText={metaCatalogTexts.catalogHelp}
                disabled={!canSave}
                sx={{ flex: '1 1 240px' }}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              {canSave && (
                <Button type="submit" variant="outlined" disabled={save.isPending || !value.trim() || value.trim() === data?.catalogId}>
                  {metaCatalogTexts.save}
                </Button>
              )}
            </Box>
            {canSave && data?.catalogId && (
              <Button variant="contained" startIcon={<SyncIcon />} onClick={() => sync.mutate()} disabled={running || sync.isPending} sx={{ alignSelf: 'flex-start' }}>
                {running ? metaCatalogTexts.running : metaCatalogTexts.sync}
              </Button>
            )}
            {running && run && (
              <Box data-testid="meta-catalog-progress">
                <LinearProgress variant={run.total ? 'determinate' : 'indeterminate'} value={run.total ? (100 * run.processed) / run.total : undefined} />
                <Typography variant="caption" color="text.secondary">
                  {metaCatalogTexts.progress(run.processed, run.total)}
                </Typography>
              </Box>
            )}
            {run?.message && !running && (
              <Alert severity={run.status === 'failed' ? 'error' : run.failed ? 'warning' : 'success'} data-testid="meta-catalog-message">
                {run.message}
              </Alert>
            )}
            {problem && <Alert severity="error">{problem}</Alert>}
            {data?.catalogId && (
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                <Chip size="small" color="success" variant="outlined" label={metaCatalogTexts.accepted(data.accepted)} />
                {data.errors.length > 0 && <Chip size="small" color="warning" variant="outlined" label={metaCatalogTexts.failed(data.errors.length)} />}
              </Box>
            )}
            {data && data.errors.length > 0 && (
              <Box>
                <Typography variant="subtitle2">{metaCatalogTexts.errorsTitle}</Typography>
                <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 240, overflowY: 'auto' }} data-testid="meta-catalog-errors">
                  {data.errors.map((e) => (
                    <li key={e.sku}>
                      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                        <strong>{e.name ?? e.sku}</strong> ({e.sku}): {e.error}
                      </Typography>
                    </li>
                  ))}
                </Box>
              </Box>
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
