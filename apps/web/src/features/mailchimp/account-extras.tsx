import type { MailchimpProblem, MailchimpTestOut } from '@mostrador/contract';
import CloudDownload from '@mui/icons-material/CloudDownloadOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { type ConnectionCheck, ConnectionTestDialog } from '../../components/ui/connection-checks';
import { isActiveSync, mailchimpApi, useMailchimpAccounts, useMailchimpSyncs, usePull } from './api';
import { mailchimpKeys } from '../../lib/query-keys';

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

/** Each part of the credential after a test: what to fix, what works, what was not reached. */
export function checksOf(result: MailchimpTestOut): ConnectionCheck[] {
  const p = result.ok ? undefined : (result.problem ?? 'mailchimp');
  const prefix: ConnectionCheck['state'] = p === 'serverPrefix' ? 'bad' : p === 'network' ? 'unknown' : 'ok';
  const key: ConnectionCheck['state'] = p === 'apiKey' ? 'bad' : p === 'serverPrefix' || p === 'network' ? 'unknown' : 'ok';
  const list: ConnectionCheck['state'] = p === 'listId' ? 'bad' : p ? 'unknown' : 'ok';
  return [
    { label: 'Prefijo del servidor', state: prefix, detail: prefix === 'ok' ? 'Corresponde a la API key' : prefix === 'bad' ? 'No es el servidor de la API key' : 'Sin probar' },
    { label: 'API key', state: key, detail: key === 'ok' ? 'Mailchimp la acepta' : key === 'bad' ? 'Mailchimp no la acepta' : 'Sin probar' },
    { label: 'Id de la audiencia', state: list, detail: list === 'ok' ? `Audiencia «${result.audience?.name ?? ''}»` : list === 'bad' ? 'No existe en esta cuenta' : 'Sin probar' },
  ];
}

/** «Probar conexión»: GET /ping and the audience, run when the dialog opens, with what to fix. */
export function MailchimpTestDialog({ account, open, onClose }: { account: ResourceRecord; open: boolean; onClose: () => void }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return (
    <ConnectionTestDialog
      name={displayNameOf(account)}
      open={open}
      onClose={onClose}
      run={() => mailchimpApi.test(account._id)}
      onResult={(result) => queryClient.setQueryData(mailchimpKeys.connection(account._id, companyId), result)}
      pendingText="Probando la conexión con Mailchimp…"
      testId="mailchimp-test-result"
      checksOf={checksOf}
    >
      {(result) =>
        !result.ok && result.problem !== 'mailchimp' && result.problem !== 'network' && <Typography variant="body2">Corrígelo con «Editar» en la fila de la credencial y vuelve a probar.</Typography>
      }
    </ConnectionTestDialog>
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
