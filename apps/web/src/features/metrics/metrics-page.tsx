import { type AttributionGrouping, attributionGroupings, type MetricChannel, metricChannels, metricChatChannels } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { channelLabel } from '../../components/ui/channel-icon';
import { PageHeader } from '../../components/ui/page-header';
import { useCompanyTimezone } from '../../lib/company-time';
import type { MetricsQuery } from './api';
import { CsatSection } from './csat-section';
import { AttributionSection } from './attribution';
import { DEFAULT_PRESET, dayLabel, isPreset, type PresetKey, presetKeys, presetLabels, presetRange, rangeProblem, todayIn } from './model';
import { useNarrow } from './parts';
import {
  CeoSection,
  ChannelSection,
  CleanLeadsSection,
  EngagementSection,
  LeadsSection,
  MotivesSection,
  QualitySection,
  SalesSection,
  type SectionProps,
  SentimentSection,
  type SentimentMode,
} from './sections';
import { TeamSection } from './team-section';

/** The screen's views (`?vista=`), in the order an owner reads them. */
const views = [
  { key: 'ceo', label: 'CEO', channels: [] },
  { key: 'clean-leads', label: 'Clean leads por mes', channels: [] },
  { key: 'leads', label: 'Leads por mes', channels: metricChannels },
  { key: 'canal', label: 'General por canal', channels: metricChatChannels },
  { key: 'sentimiento', label: 'Análisis de sentimiento', channels: metricChatChannels },
  { key: 'motivos', label: 'Motivos de consulta', channels: metricChatChannels },
  { key: 'ventas', label: 'Ventas', channels: metricChatChannels },
  { key: 'calidad', label: 'Calidad y categorías IA', channels: metricChatChannels },
  { key: 'compromiso', label: 'Compromiso del cliente', channels: [] },
  { key: 'equipo', label: 'Equipo', channels: [] },
  { key: 'atribucion', label: 'Atribución', channels: [] },
] as const satisfies ReadonlyArray<{ key: string; label: string; channels: readonly MetricChannel[] }>;
type ViewKey = (typeof views)[number]['key'];

const sectionOf: Record<Exclude<ViewKey, 'sentimiento' | 'atribucion'>, ComponentType<SectionProps>> = {
  ceo: CeoSection,
  'clean-leads': CleanLeadsSection,
  leads: LeadsSection,
  canal: ChannelSection,
  motivos: MotivesSection,
  ventas: SalesSection,
  calidad: QualitySection,
  compromiso: EngagementSection,
  equipo: TeamSection,
};

const channelNotes: Partial<Record<ViewKey, string>> = {
  ventas: 'El canal filtra la venta cruzada; las órdenes y los anuncios no se separan por canal.',
};

/** /metricas (SPEC §2 Metrics views, §7 Metrics, §8): every section over one window, kept in the address. */
export function MetricsPage() {
  const narrow = useNarrow();
  const timezone = useCompanyTimezone();
  const [params, setParams] = useSearchParams();
  const today = todayIn(timezone);

  const viewParam = params.get('vista');
  const view = views.find((v) => v.key === viewParam) ?? views[0];
  const rangeParam = params.get('rango');
  const typed = params.get('desde') !== null || params.get('hasta') !== null;
  const preset: PresetKey | undefined = isPreset(rangeParam) ? rangeParam : typed ? undefined : DEFAULT_PRESET;
  const window = preset ? presetRange(preset, today) : { from: params.get('desde') ?? '', to: params.get('hasta') ?? '' };
  const problem = preset ? undefined : rangeProblem(window.from, window.to);
  const channelParam = params.get('canal');
  const channel = (view.channels as readonly string[]).includes(channelParam ?? '') ? (channelParam as MetricChannel) : undefined;
  const mode: SentimentMode = params.get('modo') === 'mensual' ? 'mensual' : 'conteos';
  const query: MetricsQuery = { from: window.from, to: window.to, ...(channel ? { channel } : {}) };

  const update = (changes: Record<string, string | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const choosePreset = (key: PresetKey) => update({ rango: key, desde: undefined, hasta: undefined });
  const typeDay = (which: 'desde' | 'hasta', value: string) =>
    update({ rango: undefined, desde: window.from, hasta: window.to, [which]: value || undefined });

  const Section = view.key === 'sentimiento' || view.key === 'atribucion' ? undefined : sectionOf[view.key];
  const byParam = params.get('por');
  const by: AttributionGrouping = (attributionGroupings as readonly string[]).includes(byParam ?? '') ? (byParam as AttributionGrouping) : 'ad_campaign';

  return (
    <>
      <PageHeader title="Métricas" subtitle="Mensajes, leads, ventas y lo que dicen tus clientes, en la zona horaria de la compañía" />
      {narrow ? (
        <TextField select size="small" fullWidth label="Sección" value={view.key} onChange={(e) => update({ vista: e.target.value })} sx={{ mb: 2 }}>
          {views.map((v) => (
            <MenuItem key={v.key} value={v.key}>
              {v.label}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <Tabs value={view.key} onChange={(_, value: string) => update({ vista: value })} variant="scrollable" scrollButtons="auto" aria-label="Secciones" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
          {views.map((v) => (
            <Tab key={v.key} value={v.key} label={v.label} />
          ))}
        </Tabs>
      )}

      {view.key !== 'compromiso' && (
        <Card component="section" aria-label="Filtros" sx={{ p: { xs: 1.5, sm: 2 }, mb: 3, display: 'grid', gap: 1.5 }}>
          <Box role="group" aria-label="Rangos rápidos" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
            {presetKeys.map((key) => (
              <Chip
                key={key}
                label={presetLabels[key]}
                size={narrow ? 'small' : 'medium'}
                color={preset === key ? 'primary' : 'default'}
                variant={preset === key ? 'filled' : 'outlined'}
                aria-pressed={preset === key}
                onClick={() => choosePreset(key)}
              />
            ))}
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
            <TextField
              type="date"
              size="small"
              label="Desde"
              value={window.from}
              onChange={(e) => typeDay('desde', e.target.value)}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today } }}
              sx={{ flex: { xs: '1 1 130px', sm: '0 1 180px' } }}
            />
            <TextField
              type="date"
              size="small"
              label="Hasta"
              value={window.to}
              onChange={(e) => typeDay('hasta', e.target.value)}
              error={!!problem}
              helperText={problem}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: { xs: '1 1 130px', sm: '0 1 180px' } }}
            />
            {view.channels.length > 0 && (
              <TextField
                select
                size="small"
                label="Canal"
                value={channel ?? ''}
                onChange={(e) => update({ canal: e.target.value || undefined })}
                sx={{ flex: { xs: '1 1 100%', sm: '0 1 200px' } }}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">Todos los canales</MenuItem>
                {view.channels.map((c) => (
                  <MenuItem key={c} value={c}>
                    {channelLabel(c)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Box>
          {!problem && (
            <Typography variant="caption" color="text.secondary" data-testid="metrics-window">
              Del {dayLabel(window.from)} al {dayLabel(window.to)}
              {timezone ? ` · ${timezone}` : ''}
              {channel && channelNotes[view.key] ? ` · ${channelNotes[view.key]}` : ''}
            </Typography>
          )}
        </Card>
      )}

      {!problem && (
        <Box key={view.key}>
          {view.key === 'sentimiento' ? (
            <SentimentSection query={query} mode={mode} onMode={(m) => update({ modo: m === 'conteos' ? undefined : m })} />
          ) : view.key === 'atribucion' ? (
            <AttributionSection query={query} by={by} onBy={(b) => update({ por: b === 'ad_campaign' ? undefined : b })} />
          ) : (
            Section && <Section query={query} />
          )}
          {/* what the customers said of the team (CSAT, decision 0100), under how fast it answers */}
          {view.key === 'equipo' && (
            <Box sx={{ mt: 3 }}>
              <CsatSection query={query} />
            </Box>
          )}
        </Box>
      )}
    </>
  );
}

export default MetricsPage;
