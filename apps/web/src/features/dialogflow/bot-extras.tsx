import { BOT_STATUS_DAYS, botConnectionLabels, type BotStatusOut, type BotTestOut } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
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
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { formatCount } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { botsApi, useBotStatus } from './api';
import { botKeys } from '../../lib/query-keys';

export const botTexts = {
  test: 'Probar conexión',
  testing: 'Consultando al agente…',
  ask: 'Probar',
  text: 'Texto de prueba',
  sandbox: 'Agente de prueba',
  failedCall: 'No se pudo probar la conexión. Inténtalo de nuevo.',
} as const;

const platformNames: Record<string, string> = { whatsapp: 'WhatsApp', facebook: 'Facebook', instagram: 'Instagram', telegram: 'Telegram' };

const connectionColor: Record<BotStatusOut['connection'], 'success' | 'error' | 'default'> = { ok: 'success', failed: 'error', untested: 'default' };

/** «Probar conexión»: a detectIntent of a harmless text (editable), with the intent matched or the Spanish reason. */
function TestDialog({ bot, open, onClose }: { bot: ResourceRecord; open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const [text, setText] = useState('Hola');
  const test = useMutation({
    mutationFn: () => botsApi.test(bot._id, text.trim() || 'Hola'),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: botKeys.status(companyId) }),
  });
  const result: BotTestOut | undefined = test.data;
  const close = () => {
    test.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {botTexts.test} · {displayNameOf(bot)}
        <IconButton aria-label="Cerrar" onClick={close} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Proyecto {String(bot.dialogflowProjectId ?? '—')} · se envía el texto al agente como lo haría un cliente, sin tocar ningún chat.
        </Typography>
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, alignItems: 'start', flexWrap: 'wrap' }}
          onSubmit={(event) => {
            event.preventDefault();
            test.mutate();
          }}
        >
          <TextField
            size="small"
            label={botTexts.text}
            value={text}
            onChange={(event) => setText(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 256 } }}
            sx={{ flex: '1 1 200px' }}
          />
          <Button type="submit" variant="outlined" disabled={test.isPending}>
            {botTexts.ask}
          </Button>
        </Box>
        {test.isPending && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }} role="status">
            <CircularProgress size={20} />
            <Typography>{botTexts.testing}</Typography>
          </Box>
        )}
        {test.isError && <Alert severity="error">{botTexts.failedCall}</Alert>}
        {result && (
          <Alert severity={result.ok ? (result.fallback ? 'warning' : 'success') : 'error'} data-testid="bot-test-result">
            {result.msg}
          </Alert>
        )}
        {result?.ok && (
          <Box sx={{ display: 'grid', gap: 0.5 }}>
            {result.reply && (
              <Typography variant="body2">
                <strong>Respondería:</strong> {result.reply}
              </Typography>
            )}
            {result.confidence !== undefined && (
              <Typography variant="caption" color="text.secondary">
                Confianza {Math.round(result.confidence * 100)} %
              </Typography>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={close}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The bot's name, project and «Probar conexión». */
export function BotSummary({ bot }: { bot: ResourceRecord }) {
  const [open, setOpen] = useState(false);
  const { can } = usePermissions();
  const name = displayNameOf(bot);
  const project = typeof bot.dialogflowProjectId === 'string' ? bot.dialogflowProjectId : '';
  return (
    <Box sx={{ display: 'grid', gap: 0.25, justifyItems: 'start', minWidth: 0 }}>
      <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {[platformNames[String(bot.platform)], project ? `Proyecto ${project}` : 'Sin proyecto de Dialogflow'].filter(Boolean).join(' · ')}
      </Typography>
      {can('integrations', 'update') && (
        <Box sx={{ mt: 0.5, ml: -0.75 }} onClick={(event) => event.stopPropagation()}>
          <Button size="small" startIcon={<NetworkCheck fontSize="small" />} aria-label={`${botTexts.test}: ${name}`} onClick={() => setOpen(true)}>
            {botTexts.test}
          </Button>
          <TestDialog bot={bot} open={open} onClose={() => setOpen(false)} />
        </Box>
      )}
    </Box>
  );
}

/** Whether it answers now, its connection as last seen, and what it did in the last days. */
export function BotState({ bot }: { bot: ResourceRecord }) {
  const status = useBotStatus(bot._id);
  const s = status.data;
  return (
    <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start', minWidth: 0 }} data-testid="bot-state">
      {status.isLoading && <Skeleton width={160} />}
      {status.isError && (
        <Typography variant="caption" color="error">
          No se pudo leer el estado del bot.
        </Typography>
      )}
      {s && (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            <Chip size="small" variant="outlined" color={s.ready ? 'success' : 'warning'} label={s.ready ? 'Atiende chats' : 'No atiende chats'} />
            <Chip size="small" variant="outlined" color={connectionColor[s.connection]} label={botConnectionLabels[s.connection]} />
            {s.sandbox && <Chip size="small" variant="outlined" label={botTexts.sandbox} />}
          </Box>
          {!s.ready && s.notReadyReason && (
            <Typography variant="caption" color="warning.main">
              {s.notReadyReason}
            </Typography>
          )}
          {s.connection === 'failed' && s.connectionMsg && (
            <Typography variant="caption" color="error" sx={{ maxWidth: 420, overflowWrap: 'anywhere' }}>
              {s.connectionMsg}
            </Typography>
          )}
          {s.testedAt && (
            <Typography variant="caption" color="text.secondary">
              Última consulta: {formatInstant(s.testedAt)}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary">
            Últimos {BOT_STATUS_DAYS} días: {formatCount(s.answered)} {s.answered === 1 ? 'respuesta' : 'respuestas'} · {formatCount(s.handedOver)}{' '}
            {s.handedOver === 1 ? 'chat pasado' : 'chats pasados'} a una persona
            {s.failed ? ` · ${formatCount(s.failed)} con error` : ''} · {formatCount(s.answering)} {s.answering === 1 ? 'chat atendiendo' : 'chats atendiendo'}
          </Typography>
        </>
      )}
    </Box>
  );
}
