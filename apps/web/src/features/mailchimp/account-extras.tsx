import type { MailchimpProblem, MailchimpTestOut } from '@mostrador/contract';
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import CloudDownload from '@mui/icons-material/CloudDownloadOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { isActiveSync, mailchimpApi, mailchimpKeys, useMailchimpAccounts, useMailchimpSyncs, usePull } from './api';

const problemLabels: Record<MailchimpProblem, string> = {
  apiKey: 'revisa la API key',
  serverPrefix: 'revisa el prefijo',
  listId: 'revisa la audiencia',
  network: 'sin conexión',
  mailchimp: 'Mailchimp falló',
};

/** The key: never shown back (decision 0010), only that it is saved and its last four characters; and the last test. */
export function AccountKey({ account }: { account: ResourceRecord }) {
  const accounts = useMailchimpAccounts();
  const hint = accounts.data?.payload.find((a) => a._id === account._id);
  const saved = account.apiKeySet === true;
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
      <Chip
        size="small"
        variant="outlined"
        color={saved ? 'success' : 'warning'}
        icon={saved ? <LockOutlined fontSize="small" /> : undefined}
        label={saved ? `API key guardada${hint?.keyHint ? ` · ${hint.keyHint}` : ''}` : 'Falta la API key'}
        data-testid="mailchimp-key"
      />
      {hint?.sandbox && (
        <Typography variant="caption" color="text.secondary">
          Audiencia de prueba (no sale a internet)
        </Typography>
      )}
      <AccountConnection account={account} />
    </Box>
  );
}

export function AccountConnection({ account }: { account: ResourceRecord }) {
  const { companyId } = useSession();
  const { data } = useQuery<MailchimpTestOut>({ queryKey: mailchimpKeys.connection(account._id, companyId), queryFn: () => Promise.reject(new Error('sin probar')), enabled: false });
  if (!data) return <Chip size="small" variant="outlined" label="Conexión sin probar" />;
  return (
    <Tooltip title={data.msg}>
      <Chip size="small" color={data.ok ? 'success' : 'error'} label={data.ok ? 'Conectada' : `Sin conexión: ${problemLabels[data.problem ?? 'mailchimp']}`} data-testid="mailchimp-connection" />
    </Tooltip>
  );
}

type Check = { label: string; state: 'ok' | 'bad' | 'unknown'; detail: string };

/** Each part of the credential after a test: what to fix, what works, what was not reached. */
export function checksOf(result: MailchimpTestOut): Check[] {
  const p = result.ok ? undefined : (result.problem ?? 'mailchimp');
  const prefix: Check['state'] = p === 'serverPrefix' ? 'bad' : p === 'network' ? 'unknown' : 'ok';
  const key: Check['state'] = p === 'apiKey' ? 'bad' : p === 'serverPrefix' || p === 'network' ? 'unknown' : 'ok';
  const list: Check['state'] = p === 'listId' ? 'bad' : p ? 'unknown' : 'ok';
  return [
    { label: 'Prefijo del servidor', state: prefix, detail: prefix === 'ok' ? 'Corresponde a la API key' : prefix === 'bad' ? 'No es el servidor de la API key' : 'Sin probar' },
    { label: 'API key', state: key, detail: key === 'ok' ? 'Mailchimp la acepta' : key === 'bad' ? 'Mailchimp no la acepta' : 'Sin probar' },
    { label: 'Id de la audiencia', state: list, detail: list === 'ok' ? `Audiencia «${result.audience?.name ?? ''}»` : list === 'bad' ? 'No existe en esta cuenta' : 'Sin probar' },
  ];
}

const checkIcons: Record<Check['state'], ReactNode> = { ok: <CheckCircle color="success" />, bad: <Cancel color="error" />, unknown: <HelpOutline color="disabled" /> };

/** «Probar conexión»: GET /ping and the audience, run when the dialog opens, with what to fix. */
export function MailchimpTestDialog({ account, open, onClose }: { account: ResourceRecord; open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => mailchimpApi.test(account._id),
    onSuccess: (result) => queryClient.setQueryData(mailchimpKeys.connection(account._id, companyId), result),
  });
  const { mutate, reset } = test;
  useEffect(() => {
    if (open) mutate();
    else reset();
  }, [open, mutate, reset]);
  const result = test.data;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Probar conexión · {displayNameOf(account)}
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        {test.isPending && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }} role="status">
            <CircularProgress size={20} />
            <Typography>Probando la conexión con Mailchimp…</Typography>
          </Box>
        )}
        {test.isError && <Alert severity="error">No se pudo probar la conexión. Inténtalo de nuevo.</Alert>}
        {result && (
          <>
            <Alert severity={result.ok ? 'success' : 'error'} data-testid="mailchimp-test-result">
              {result.msg}
            </Alert>
            <List dense disablePadding aria-label="Comprobaciones">
              {checksOf(result).map((check) => (
                <ListItem key={check.label} disableGutters data-state={check.state}>
                  <ListItemIcon sx={{ minWidth: 36 }}>{checkIcons[check.state]}</ListItemIcon>
                  <ListItemText primary={check.label} secondary={check.detail} />
                </ListItem>
              ))}
            </List>
            {!result.ok && result.problem !== 'mailchimp' && result.problem !== 'network' && (
              <Typography variant="body2">Corrígelo con «Editar» en la fila de la credencial y vuelve a probar.</Typography>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => test.mutate()} disabled={test.isPending}>
          Probar de nuevo
        </Button>
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The credential's cell: its name, its audience id, and «Probar conexión» and «Sincronizar desde Mailchimp». */
export function AccountSummary({ account }: { account: ResourceRecord }) {
  const [testing, setTesting] = useState(false);
  const { can } = usePermissions();
  const syncs = useMailchimpSyncs();
  const pull = usePull();
  const name = displayNameOf(account);
  const going = syncs.data?.payload.some((s) => s.kind === 'pull' && s.mailchimpId === account._id && isActiveSync(s));
  return (
    <Box sx={{ display: 'grid', gap: 0.25, justifyItems: 'start', minWidth: 0 }}>
      <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        Audiencia {String(account.listId ?? '')} · servidor {String(account.serverPrefix ?? '')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, ml: -0.75 }} onClick={(event) => event.stopPropagation()}>
        <Button size="small" startIcon={<NetworkCheck fontSize="small" />} aria-label={`Probar conexión: ${name}`} onClick={() => setTesting(true)}>
          Probar conexión
        </Button>
        {can('marketing', 'update') && (
          <Button
            size="small"
            startIcon={<CloudDownload fontSize="small" />}
            aria-label={`${going ? 'Trayendo contactos…' : 'Sincronizar desde Mailchimp'}: ${name}`}
            onClick={() => pull.mutate(account._id)}
            disabled={going || pull.isPending}
          >
            {going ? 'Trayendo contactos…' : 'Sincronizar desde Mailchimp'}
          </Button>
        )}
        {/* inside the box that keeps clicks from the row: a click in the dialog must not open the edit form */}
        <MailchimpTestDialog account={account} open={testing} onClose={() => setTesting(false)} />
      </Box>
    </Box>
  );
}
