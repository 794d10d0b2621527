import { type ContactFrequencyChoice, contactFrequencyChoices } from '@mostrador/contract';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PublicLayout } from '../../components/ui/public-layout';
import { ApiError } from '../../lib/api-client';
import { frequencyApi } from './api';
import { frequencyKeys } from '../../lib/query-keys';

const CONNECTION = 'No hay conexión. Revisa tu internet e inténtalo de nuevo.';
const messageOf = (error: unknown) => (error instanceof ApiError ? (error.messages[0] ?? 'El enlace no es válido') : CONNECTION);

/** What the saved choice means, in the customer's words. */
function confirmationOf(choice: ContactFrequencyChoice, company: string): string {
  if (choice === 'opt-out') return `${company} no te enviará más mensajes.`;
  const option = contactFrequencyChoices.find((c) => c.value === choice);
  return `${company} te escribirá como máximo ${option?.label.toLowerCase() ?? ''}.`;
}

/**
 * /dias-frecuencia/{token} and /dias-frecuencia?t={token} (SPEC §2 public route, decision
 * 0017): a customer opens the link the business sent and chooses how often it may write to
 * them, or that it may not. No login; made for a phone screen.
 */
export function DiasFrecuenciaPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const token = (params.token ?? search.get('t') ?? '').trim();
  const preference = useQuery({
    queryKey: frequencyKeys.preference(token),
    queryFn: () => frequencyApi.get(token),
    enabled: !!token,
    retry: false,
    meta: { quiet: true },
  });
  // the person's pick; until they pick, the stored choice
  const [picked, setChoice] = useState<ContactFrequencyChoice | null>(null);
  const [saved, setSaved] = useState<ContactFrequencyChoice | null>(null);
  const save = useMutation({
    mutationFn: (value: ContactFrequencyChoice) => frequencyApi.save(token, value),
    onSuccess: (answer) => setSaved(answer.choice),
  });
  const choice = picked ?? preference.data?.choice ?? null;

  if (!token || preference.isError) {
    const expired = preference.error instanceof ApiError && /venció/.test(preference.error.messages[0] ?? '');
    return (
      <PublicLayout title={expired ? 'Este enlace venció' : 'Enlace no válido'}>
        <Alert severity="error" data-testid="link-invalid" sx={{ mb: 2 }}>
          {token ? messageOf(preference.error) : 'El enlace no es válido'}
        </Alert>
        <Typography color="text.secondary">Pide a la empresa que te envíe un enlace nuevo para elegir cada cuánto quieres recibir mensajes.</Typography>
      </PublicLayout>
    );
  }

  if (preference.isPending) {
    return (
      <PublicLayout title="Preferencias de mensajes">
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>Cargando…</Typography>
        </Stack>
      </PublicLayout>
    );
  }

  const company = preference.data.companyName;
  if (saved) {
    return (
      <PublicLayout title="¡Listo!" brand={{ name: company, tagline: 'Preferencias de mensajes' }}>
        <Stack spacing={2} sx={{ alignItems: 'stretch' }}>
          <Alert severity="success" icon={<CheckCircleOutline />} role="status">
            Preferencia guardada
          </Alert>
          <Typography sx={{ fontSize: '1.1rem' }}>{confirmationOf(saved, company)}</Typography>
          <Typography color="text.secondary" variant="body2">
            Puedes cambiarla cuando quieras desde este mismo enlace.
          </Typography>
          <Button variant="outlined" size="large" onClick={() => setSaved(null)}>
            Cambiar preferencia
          </Button>
        </Stack>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout
      title="¿Cada cuánto quieres recibir mensajes?"
      subtitle={`De ${company}. Elige una opción y guárdala.`}
      brand={{ name: company, tagline: 'Preferencias de mensajes' }}
    >
      <Box
        component="form"
        aria-label="Preferencia de mensajes"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) save.mutate(choice);
        }}
      >
        <RadioGroup
          aria-label={`Frecuencia de mensajes de ${company}`}
          value={choice ?? ''}
          onChange={(event) => setChoice(event.target.value as ContactFrequencyChoice)}
          sx={{ gap: 1.25 }}
        >
          {contactFrequencyChoices.map((option) => (
            <FormControlLabel
              key={option.value}
              value={option.value}
              control={<Radio />}
              label={option.label}
              sx={{
                m: 0,
                px: 1,
                py: 0.75,
                border: 1,
                borderRadius: 2,
                borderColor: choice === option.value ? 'primary.main' : 'divider',
                bgcolor: choice === option.value ? 'rgba(40, 21, 108, 0.06)' : 'transparent',
                '& .MuiFormControlLabel-label': { fontSize: '1.05rem' },
              }}
            />
          ))}
        </RadioGroup>
        {save.isError && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="save-error">
            {messageOf(save.error)}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3, py: 1.5 }} disabled={!choice || save.isPending}>
          {save.isPending ? 'Guardando…' : 'Guardar preferencia'}
        </Button>
      </Box>
    </PublicLayout>
  );
}

export default DiasFrecuenciaPage;
