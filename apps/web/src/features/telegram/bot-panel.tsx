import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { usePermissions } from '../../lib/permissions';
import { useSaveTelegramToken, useTelegramSettings, useTestTelegram } from './api';

/**
 * The company's bot above its groups (decision 0040): the token from @BotFather is checked with
 * getMe when saved, kept sealed and never shown again (only its last characters); «Probar conexión»
 * asks Telegram now and says what is wrong. A token starting with «sandbox» is the demo's bot.
 */
export function TelegramBotPanel() {
  const permissions = usePermissions();
  // a role without the integrations' permission does not see the bot at all
  if (!permissions.can('integrations', 'read')) return null;
  return <BotPanel />;
}

function BotPanel() {
  const settings = useTelegramSettings();
  const save = useSaveTelegramToken();
  const test = useTestTelegram();
  const canEdit = usePermissions().can('integrations', 'update');
  const [token, setToken] = useState('');
  const data = settings.data;
  return (
    <Box component="section" aria-label="Bot de Telegram" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, mb: 2, display: 'grid', gap: 1.5 }}>
      <Typography variant="subtitle1" component="h2">
        Bot de Telegram
      </Typography>
      {data?.configured ? (
        <Typography variant="body2">
          {data.botUsername ? `@${data.botUsername}` : 'Bot guardado'} · token {data.tokenHint}
          {data.sandbox ? ' · sandbox: los mensajes no salen a Telegram' : ''}
        </Typography>
      ) : (
        settings.isSuccess && (
          <Typography variant="body2" color="text.secondary">
            Aún no hay bot. Crea uno con @BotFather, pega aquí su token y agrega el bot a tus grupos.
          </Typography>
        )
      )}
      {canEdit && (
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(token.trim(), { onSuccess: () => setToken('') });
          }}
        >
          <TextField
            size="small"
            label={data?.configured ? 'Nuevo token del bot' : 'Token del bot'}
            placeholder="123456789:AAH…"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            sx={{ flex: '1 1 260px' }}
          />
          <Button type="submit" variant="contained" disabled={!token.trim() || save.isPending}>
            Guardar token
          </Button>
          {data?.configured && (
            <Button variant="outlined" disabled={test.isPending} onClick={() => test.mutate()}>
              Probar conexión
            </Button>
          )}
        </Box>
      )}
      {test.data && <Alert severity={test.data.ok ? 'success' : 'error'}>{test.data.msg}</Alert>}
    </Box>
  );
}
