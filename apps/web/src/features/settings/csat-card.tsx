import { CSAT_QUESTION_MAX, type CsatSettingsIn, type CsatSettingsOut, type CsatStyle, csatOptions, csatSettingsIn, csatStyleLabels, csatStyles } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { csatKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

/** The card's Spanish texts. */
export const csatCardTexts = {
  title: 'Encuesta de satisfacción',
  subheader: 'Al resolver un chat de WhatsApp, el cliente califica la atención',
  enabled: 'Enviar la encuesta al resolver un chat',
  enabledHint: 'Solo en chats de WhatsApp y dentro de la ventana de 24 horas; si está cerrada, no se envía y queda el motivo.',
  style: 'Forma de responder',
  question: 'Pregunta',
  preview: 'El cliente verá',
  save: 'Guardar',
  saved: 'Encuesta guardada',
  failed: 'No se pudo guardar la encuesta. Inténtalo de nuevo.',
  readOnly: 'Solo un administrador puede cambiar la encuesta.',
  loadError: 'No se pudo cargar la encuesta.',
} as const;

export const csatSettingsApi = {
  get: () => api.get<CsatSettingsOut>('/csat/settings', { overlay: false }),
  /** The card shows the server's refusal next to the field it names. */
  save: (input: CsatSettingsIn) => api.put<CsatSettingsOut>('/csat/settings', input, { overlay: false, notify: false, success: csatCardTexts.saved }),
};

type Errors = Partial<Record<'question' | 'style' | 'form', string>>;

function CsatForm({ settings }: { settings: CsatSettingsOut }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const canEdit = usePermissions().can('settings', 'update');
  const [draft, setDraft] = useState<CsatSettingsIn>({ enabled: settings.enabled, style: settings.style, question: settings.question });
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: () => csatSettingsApi.save(draft),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(csatKeys.settings(companyId), saved);
    },
    onError: (error) => {
      const details = error instanceof ApiError ? ((error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details ?? []) : [];
      setErrors(details.length ? Object.fromEntries(details.map((d) => [d.path.replace(/^body\./, ''), d.msg])) : { form: csatCardTexts.failed });
    },
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = csatSettingsIn.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate();
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }} aria-label={csatCardTexts.title}>
      <Box>
        <FormControlLabel
          control={<Switch checked={draft.enabled} disabled={!canEdit} onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))} />}
          label={csatCardTexts.enabled}
        />
        <Typography variant="caption" color="text.secondary" component="p">
          {csatCardTexts.enabledHint}
        </Typography>
      </Box>
      <TextField
        select
        label={csatCardTexts.style}
        value={draft.style}
        disabled={!canEdit}
        onChange={(e) => setDraft((d) => ({ ...d, style: e.target.value as CsatStyle }))}
        error={!!errors.style}
        helperText={errors.style}
      >
        {csatStyles.map((s) => (
          <MenuItem key={s} value={s}>
            {csatStyleLabels[s]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={csatCardTexts.question}
        value={draft.question}
        disabled={!canEdit}
        multiline
        minRows={2}
        onChange={(e) => setDraft((d) => ({ ...d, question: e.target.value }))}
        error={!!errors.question}
        helperText={errors.question ?? `${draft.question.length}/${CSAT_QUESTION_MAX}`}
        slotProps={{ htmlInput: { maxLength: CSAT_QUESTION_MAX } }}
      />
      <Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
          {csatCardTexts.preview}
        </Typography>
        <Box data-testid="csat-preview" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
          {csatOptions[draft.style].map((o) => (
            <Chip key={o.score} size="small" variant="outlined" label={o.title} />
          ))}
        </Box>
      </Box>
      {errors.form && (
        <Typography color="error" role="alert" variant="body2">
          {errors.form}
        </Typography>
      )}
      {canEdit && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {csatCardTexts.save}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/** /configuracion's «Encuesta de satisfacción» card (decision 0100): on or off, buttons or a 1–5 list, the question (PUT /csat/settings). */
export function CsatCard() {
  const { companyId } = useSession();
  const canRead = usePermissions().can('settings', 'read');
  const settings = useQuery({ queryKey: csatKeys.settings(companyId), queryFn: csatSettingsApi.get, enabled: canRead, meta: { quiet: true } });
  return (
    <Card>
      <CardHeader title={csatCardTexts.title} subheader={csatCardTexts.subheader} slotProps={{ title: { variant: 'h3', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        {!canRead ? (
          <Typography color="text.secondary">{csatCardTexts.readOnly}</Typography>
        ) : settings.isLoading ? (
          <Skeleton variant="rounded" height={200} />
        ) : settings.data ? (
          <CsatForm key={settings.data.updatedAt ?? 'default'} settings={settings.data} />
        ) : (
          <Typography color="text.secondary">{csatCardTexts.loadError}</Typography>
        )}
      </CardContent>
    </Card>
  );
}
