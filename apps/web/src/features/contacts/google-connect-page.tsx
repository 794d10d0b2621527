import { resources } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import GoogleIcon from '@mui/icons-material/Google';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { phoneLabel } from './phone-contacts-page';
import { googleApi, goToConsent } from './api';
import { ConnectGoogleDialog } from './google-phones';

/**
 * The credentials of the address, held in memory between the spec's route and its clean one
 * (the page is mounted again by the router): taken once, by phone.
 */
const handoff = new Map<string, { clientId: string; clientSecret: string }>();

/** The clean address of the page: the phone alone. */
export const cleanPathOf = (id: string) => `/telefonos/googlepeople/${encodeURIComponent(id)}`;

/** No Referer leaves this page while it is open (the document may have been loaded with the secret in its address). */
function useNoReferrer() {
  useLayoutEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

/**
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret} (SPEC §2; decision 0052). Before anything
 * else the credentials leave the address bar and the history (replaced by
 * /telefonos/googlepeople/{id}, so Back never shows them); then they are posted to the server,
 * which keeps them sealed and answers Google's consent URL, and the browser goes there. Opened
 * without credentials, the page asks for them (or authorizes the ones kept).
 */
export function GoogleConnectPage() {
  const { id = '', clientId, clientSecret } = useParams();
  const navigate = useNavigate();
  useNoReferrer();
  // 1. out of the address bar and the history, before the first paint (the browser's own history entry)
  useLayoutEffect(() => {
    if (clientId === undefined && clientSecret === undefined) return;
    if (clientId && clientSecret) handoff.set(id, { clientId, clientSecret });
    window.history.replaceState(window.history.state, '', cleanPathOf(id));
  }, [id, clientId, clientSecret]);
  // … and out of the router's location (after the router listens: a page mounted with the router itself)
  useEffect(() => {
    if (clientId !== undefined || clientSecret !== undefined) navigate(cleanPathOf(id), { replace: true });
  }, [id, clientId, clientSecret, navigate]);

  const phone = useResourceRecord(resources.telefonos, id);
  const numero = typeof phone.data?.numero === 'string' ? phone.data.numero : undefined;
  const [error, setError] = useState<string[]>([]);
  const [asking, setAsking] = useState(false);
  const [posting, setPosting] = useState(false);
  const [dialog, setDialog] = useState(false);
  const started = useRef(false);

  // 2. on the clean address: the credentials held go to the server, and on to Google
  useEffect(() => {
    if (clientId !== undefined || clientSecret !== undefined || started.current) return;
    started.current = true;
    const creds = handoff.get(id);
    handoff.delete(id);
    if (!creds) {
      setAsking(true);
      return;
    }
    setPosting(true);
    googleApi
      .credentials(id, creds)
      .then((answer) => goToConsent(answer.url))
      .catch((e: unknown) => {
        setPosting(false);
        setError(e instanceof ApiError ? e.messages : ['No se pudieron guardar las credenciales: inténtalo de nuevo']);
        setAsking(true);
      });
  }, [id, clientId, clientSecret]);
  const title = numero ? `Conectar ${phoneLabel(numero)} con Google` : 'Conectar el teléfono con Google';
  return (
    <>
      <Button component={RouterLink} to="/telefonos" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        Volver a teléfonos
      </Button>
      <PageHeader title={title} />
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 640 }}>
        {phone.isError && <Alert severity="warning">Ese teléfono no existe en esta compañía.</Alert>}
        {(posting || (!asking && error.length === 0)) && (
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }} role="status">
            <CircularProgress size={24} />
            <Typography>Guardando las credenciales y abriendo Google…</Typography>
          </Box>
        )}
        {error.map((m) => (
          <Alert key={m} severity="error">
            {m}
          </Alert>
        ))}
        {asking && !phone.isError && (
          <>
            <Typography color="text.secondary">
              Los contactos del teléfono se crean en la cuenta de Google que autorices. Pega el Client ID y el Client secret de tu cliente OAuth y continúa en Google.
            </Typography>
            <Box>
              <Button variant="contained" startIcon={<GoogleIcon />} onClick={() => setDialog(true)}>
                Conectar con Google
              </Button>
            </Box>
          </>
        )}
        {dialog && <ConnectGoogleDialog telefonoId={id} numero={numero} open onClose={() => setDialog(false)} />}
      </Box>
    </>
  );
}

export default GoogleConnectPage;
