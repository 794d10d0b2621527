import { llmModelPrices, llmSettingsInput, type LlmSettingsInput, type LlmSettingsOut } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { ConnectionChecks } from '../../components/ui/connection-checks';
import { useLlmSettings, useSaveLlmSettings, useTestLlm } from './api';

export interface FormState {
  enabled: boolean;
  baseUrl: string;
  model: string;
  apiKey: string;
  inputPriceUsd: string;
  outputPriceUsd: string;
  monthlyBudgetUsd: string;
}

const formOf = (s: LlmSettingsOut): FormState => ({
  enabled: s.enabled,
  baseUrl: s.baseUrl,
  model: s.model,
  apiKey: '',
  inputPriceUsd: String(s.inputPriceUsd),
  outputPriceUsd: String(s.outputPriceUsd),
  monthlyBudgetUsd: String(s.monthlyBudgetUsd),
});

/**
 * The form after one field changes: a model with a known price brings its prices; leaving a known
 * model for an unknown one empties the prices it brought (they must be written, not inherited).
 */
export function withChange(form: FormState, key: keyof FormState, value: string): FormState {
  if (key !== 'model') return { ...form, [key]: value };
  const before = llmModelPrices[form.model.trim()];
  const after = llmModelPrices[value.trim()];
  if (after) return { ...form, model: value, inputPriceUsd: String(after.input), outputPriceUsd: String(after.output) };
  const inherited = before && form.inputPriceUsd === String(before.input) && form.outputPriceUsd === String(before.output);
  return inherited ? { ...form, model: value, inputPriceUsd: '', outputPriceUsd: '' } : { ...form, model: value };
}

const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(',', '.')));

/** The body the form would send, and its problems by field (the contract's Spanish messages, then the rules the server also checks). */
export function settingsBody(form: FormState, saved: LlmSettingsOut | undefined): { body?: LlmSettingsInput; errors: Record<string, string> } {
  const known = llmModelPrices[form.model.trim()];
  const raw = {
    enabled: form.enabled,
    baseUrl: form.baseUrl,
    model: form.model,
    ...(form.apiKey.trim() ? { apiKey: form.apiKey.trim() } : {}),
    inputPriceUsd: numberOf(form.inputPriceUsd) ?? known?.input,
    outputPriceUsd: numberOf(form.outputPriceUsd) ?? known?.output,
    monthlyBudgetUsd: numberOf(form.monthlyBudgetUsd) ?? 0,
  };
  const parsed = llmSettingsInput.safeParse(raw);
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  if (raw.inputPriceUsd === undefined) errors.inputPriceUsd ??= 'Escribe el precio: no conocemos este modelo';
  if (raw.outputPriceUsd === undefined) errors.outputPriceUsd ??= 'Escribe el precio: no conocemos este modelo';
  if (form.enabled && !form.apiKey.trim() && !saved?.apiKeySet) errors.apiKey ??= 'Escribe la API key para activar el motor';
  if (form.enabled && raw.monthlyBudgetUsd <= 0) errors.monthlyBudgetUsd ??= 'Un presupuesto mayor que 0 (USD al mes)';
  return Object.keys(errors).length || !parsed.success ? { errors } : { body: parsed.data, errors };
}

/**
 * «Ajustes del motor de IA» (decision 0046): the OpenAI-compatible endpoint (URL base, model, API
 * key — never shown back, only its last 4 —, prices per million tokens, monthly budget) and
 * whether it analyses the conversations; «Probar conexión» calls it once and says what to fix.
 */
export function LlmSettingsCard() {
  const permissions = usePermissions();
  const canRead = permissions.can('integrations', 'read');
  const canEdit = permissions.can('integrations', 'update');
  const settings = useLlmSettings(canRead);
  const save = useSaveLlmSettings();
  const test = useTestLlm();
  const [form, setForm] = useState<FormState | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (!canRead || !settings.data) return null;
  const saved = settings.data;
  const known = form ? llmModelPrices[form.model.trim()] : undefined;

  const submit = () => {
    if (!form) return;
    const { body, errors: found } = settingsBody(form, saved);
    setErrors(found);
    if (!body) return;
    save.mutate(body, {
      onSuccess: () => {
        setForm(undefined);
        test.reset();
      },
      onError: (error) => {
        const details = error instanceof ApiError ? (error.body as { errors?: { msg?: string; details?: Array<{ path: string; msg: string }> } } | null)?.errors : undefined;
        setErrors({ ...Object.fromEntries((details?.details ?? []).map((d) => [d.path, d.msg])), ...(details?.details?.length ? {} : { form: details?.msg ?? 'No se pudo guardar' }) });
      },
    });
  };
  const field = (key: keyof FormState, label: string, extra: { type?: string; helperText?: string; placeholder?: string; inputMode?: 'decimal' } = {}) => (
    <TextField
      size="small"
      label={label}
      type={extra.type}
      value={form?.[key] ?? ''}
      placeholder={extra.placeholder}
      onChange={(e) => setForm((f) => (f ? withChange(f, key, e.target.value) : f))}
      error={!!errors[key]}
      helperText={errors[key] ?? extra.helperText}
      autoComplete="off"
      slotProps={{ htmlInput: extra.inputMode ? { inputMode: extra.inputMode } : undefined, inputLabel: extra.placeholder ? { shrink: true } : undefined }}
    />
  );

  return (
    <Card variant="outlined" sx={{ mb: 2 }} component="section" aria-label="Ajustes del motor de IA">
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1rem', fontWeight: 600, flex: 1 }}>
            Ajustes del motor de IA
          </Typography>
          {saved.configured && saved.enabled ? <Chip size="small" color="success" label="Modelo de pago activo" /> : <Chip size="small" variant="outlined" label="Motor integrado" />}
        </Box>
        {form ? (
          <Box
            component="form"
            noValidate
            aria-label="Motor compatible con OpenAI"
            sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <FormControlLabel
              sx={{ gridColumn: '1 / -1' }}
              control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />}
              label="Analizar las conversaciones con este modelo (si falla o se acaba el presupuesto, sigue el motor integrado)"
            />
            {field('baseUrl', 'URL base', { helperText: 'Compatible con OpenAI, p. ej. https://api.openai.com/v1' })}
            {field('model', 'Modelo', { helperText: `Con precio conocido: ${Object.keys(llmModelPrices).join(', ')}` })}
            {field('apiKey', 'API key', {
              type: 'password',
              placeholder: saved.apiKeySet ? `Guardada (…${saved.apiKeyLast4 ?? ''}): vacía la conserva` : 'sk-…',
              helperText: 'Se guarda cifrada y nunca se vuelve a mostrar',
            })}
            {field('monthlyBudgetUsd', 'Presupuesto mensual (USD)', { inputMode: 'decimal', helperText: 'Al alcanzarlo, el análisis sigue con el motor integrado hasta el mes siguiente' })}
            {field('inputPriceUsd', 'Precio entrada (USD / 1M tokens)', { inputMode: 'decimal', placeholder: known ? String(known.input) : undefined })}
            {field('outputPriceUsd', 'Precio salida (USD / 1M tokens)', { inputMode: 'decimal', placeholder: known ? String(known.output) : undefined })}
            {errors.form && (
              <Alert severity="error" sx={{ gridColumn: '1 / -1' }}>
                {errors.form}
              </Alert>
            )}
            <Box sx={{ display: 'flex', gap: 1, gridColumn: '1 / -1' }}>
              <Button type="submit" variant="contained" disabled={save.isPending}>
                Guardar
              </Button>
              <Button onClick={() => setForm(undefined)}>Cancelar</Button>
            </Box>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {saved.configured
              ? `${saved.model} en ${saved.baseUrl} · API key ${saved.apiKeySet ? `guardada (…${saved.apiKeyLast4 ?? ''})` : 'sin guardar'} · ${saved.inputPriceUsd} / ${saved.outputPriceUsd} USD por millón de tokens · presupuesto ${saved.monthlyBudgetUsd} USD al mes${saved.enabled ? '' : ' · desactivado'}`
              : 'Sin configurar: el análisis usa el motor integrado en español, sin costo. Puedes conectar cualquier servicio compatible con OpenAI (OpenAI, OpenRouter, un servidor propio) con un presupuesto mensual.'}
          </Typography>
        )}
        {!form && (
          <ConnectionChecks
            pending={test.isPending}
            pendingText="Probando la conexión con el modelo…"
            failed={test.isError}
            failedText={test.error instanceof ApiError ? test.error.message : undefined}
            result={test.data}
            testId="llm-test-result"
          />
        )}
        {!form && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {canEdit && (
              <Button
                variant="outlined"
                size="small"
                onClick={() => {
                  setForm(formOf(saved));
                  setErrors({});
                }}
              >
                {saved.configured ? 'Editar' : 'Configurar'}
              </Button>
            )}
            {saved.apiKeySet && (
              <Button size="small" onClick={() => test.mutate()} disabled={test.isPending}>
                {test.isPending ? 'Probando…' : 'Probar conexión'}
              </Button>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
