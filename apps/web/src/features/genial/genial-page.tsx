import { type GenialSettingsIn, type GenialSettingsOut, genialCountries } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { ConnectionChecks } from '../../components/ui/connection-checks';
import { useGenialSettings, useSaveGenialSettings, useTestGenial } from './api';

const countryNames: Record<string, string> = { PE: 'Perú', CL: 'Chile', CO: 'Colombia' };
const taxIdLabel: Record<string, string> = { PE: 'RUC del emisor', CL: 'RUT del emisor', CO: 'NIT del emisor' };
const empty = (): GenialSettingsIn => ({ apiUrl: '', token: '', issuerTaxId: '', issuerName: '', seriesFactura: '', seriesBoleta: '' });

/** One country's settings: shown, or edited (the token is never shown back: blank keeps it). */
function CountryCard({ country, saved }: { country: string; saved: GenialSettingsOut | undefined }) {
  const can = usePermissions().can('integrations', 'update');
  const save = useSaveGenialSettings();
  const test = useTestGenial();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<GenialSettingsIn>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const start = () => {
    setForm(saved ? { apiUrl: saved.apiUrl, token: '', issuerTaxId: saved.issuerTaxId, issuerName: saved.issuerName, seriesFactura: saved.seriesFactura, seriesBoleta: saved.seriesBoleta } : empty());
    setErrors({});
    setEditing(true);
  };
  const submit = () => {
    const body: GenialSettingsIn = { ...form, token: form.token?.trim() ? form.token.trim() : undefined };
    save.mutate(
      { country, body },
      {
        onSuccess: () => {
          setEditing(false);
          test.reset();
        },
        onError: (error) => {
          const details = error instanceof ApiError ? (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details : undefined;
          setErrors(Object.fromEntries((details ?? []).map((d) => [d.path, d.msg])));
        },
      },
    );
  };
  const field = (key: keyof GenialSettingsIn, label: string, extra: { type?: string; helperText?: string } = {}) => (
    <TextField
      key={key}
      size="small"
      label={label}
      type={extra.type}
      value={form[key] ?? ''}
      onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      error={!!errors[key]}
      helperText={errors[key] ?? extra.helperText}
      autoComplete="off"
    />
  );
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1.1rem', flex: 1 }}>
            {countryNames[country] ?? country}
          </Typography>
          {saved?.sandbox && <Chip size="small" label="Sandbox" />}
          {!saved && <Chip size="small" variant="outlined" label="Sin configurar" />}
        </Box>
        {editing ? (
          <Box component="form" sx={{ display: 'grid', gap: 1.5 }} onSubmit={(e) => {
              e.preventDefault();
              submit();
            }} aria-label={`Genial en ${countryNames[country]}`}>
            {field('apiUrl', 'URL de la API')}
            {field('token', 'Token', { type: 'password', helperText: saved?.tokenSet ? 'Guardado: déjalo vacío para conservarlo' : undefined })}
            {field('issuerTaxId', taxIdLabel[country] ?? 'Documento del emisor')}
            {field('issuerName', 'Razón social del emisor')}
            <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
              {field('seriesFactura', 'Serie de facturas')}
              {field('seriesBoleta', 'Serie de boletas')}
            </Box>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button type="submit" variant="contained" disabled={save.isPending}>
                Guardar
              </Button>
              <Button onClick={() => setEditing(false)}>Cancelar</Button>
            </Box>
          </Box>
        ) : saved ? (
          <Box sx={{ display: 'grid', gap: 0.5 }}>
            <Typography variant="body2">{saved.apiUrl}</Typography>
            <Typography variant="body2">
              {saved.issuerName} · {saved.issuerTaxId}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Series: facturas {saved.seriesFactura}, boletas {saved.seriesBoleta} · Token {saved.tokenSet ? 'guardado' : 'sin guardar'} · Actualizado {formatInstant(saved.updatedAt)}
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Sin esta configuración las órdenes de {countryNames[country]} no se facturan.
          </Typography>
        )}
        {saved && !editing && (
          <ConnectionChecks
            pending={test.isPending}
            pendingText={`Probando la conexión con Genial en ${countryNames[country]}…`}
            failed={test.isError}
            failedText={test.error instanceof ApiError ? test.error.message : undefined}
            result={test.data}
            testId={`genial-test-${country}`}
          />
        )}
        {!editing && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {can && (
              <Button variant="outlined" size="small" onClick={start}>
                {saved ? 'Editar' : 'Configurar'}
              </Button>
            )}
            {saved && (
              <Button size="small" onClick={() => test.mutate(country)} disabled={test.isPending} aria-label={`Probar conexión con Genial en ${countryNames[country]}`}>
                {test.isPending ? 'Probando…' : 'Probar conexión'}
              </Button>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** /genial (SPEC §2, decision 0037): the company's Genial settings per country. */
export function GenialPage() {
  const settings = useGenialSettings();
  const byCountry = new Map((settings.data?.payload ?? []).map((s) => [s.country, s]));
  return (
    <>
      <PageHeader title="Genial" subtitle="Facturación electrónica de las órdenes de marketplaces y e-commerce, por país" />
      {settings.isError && <Alert severity="warning">No se pudo leer la configuración de Genial</Alert>}
      {settings.isLoading ? (
        <Skeleton variant="rectangular" height={160} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' } }}>
          {genialCountries.map((c) => (
            <CountryCard key={c} country={c} saved={byCountry.get(c)} />
          ))}
        </Box>
      )}
    </>
  );
}

export default GenialPage;
