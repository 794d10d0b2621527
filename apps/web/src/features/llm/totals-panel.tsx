import { type LlmFeature, llmFeatureLabels, llmMessages, type LlmSummaryOut } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, type ReactNode, Suspense } from 'react';
import { formatCount } from '../../i18n';
import type { Money } from '../../lib/money';
import { dayLabel, formatCost, monthLabel, usdMoney } from './format';

const LlmDayChart = lazy(() => import('./day-chart'));

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="h6" sx={{ m: 0, fontSize: '1.15rem', overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
      {hint && (
        <Typography variant="caption" color="text.secondary">
          {hint}
        </Typography>
      )}
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Typography variant="h2" component="h2" sx={{ fontSize: '1rem', fontWeight: 600 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** What the engine does now, in words: the notice the issue asks for when the budget is reached. */
export function EngineNotice({ summary }: { summary: LlmSummaryOut }) {
  if (summary.month.paused) {
    return (
      <Alert severity="warning" role="status">
        {llmMessages.budgetReached(summary.month.resumesOn)}.
      </Alert>
    );
  }
  if (summary.engine === 'openai') {
    return (
      <Alert severity="success" role="status">
        El análisis de conversaciones usa {summary.model ?? 'el modelo configurado'} (motor compatible con OpenAI); si falla, responde el motor integrado.
      </Alert>
    );
  }
  return (
    <Alert severity="info" role="status">
      El análisis de conversaciones usa el motor integrado en español: no llama a modelos de pago ni tiene costo. Para usar un modelo compatible con OpenAI, configúralo en «Ajustes del motor de IA».
    </Alert>
  );
}

/**
 * /seguimiento-gpt's totals (decision 0046): this month's calls, tokens and cost (USD and the
 * company's currency) against the monthly budget — a bar with the % used and the paused notice
 * —, the cost per day and the breakdown per feature over the screen's window.
 */
export function LlmTotals({ summary, money }: { summary: LlmSummaryOut; money: Money }) {
  const m = summary.month;
  const usd = usdMoney(money.locale);
  const local: Money = { currency: summary.currency, locale: money.locale };
  const percent = m.percent ?? 0;
  const maxFeature = Math.max(...summary.features.map((f) => f.costUsd), 0);
  const range = summary.days.length ? `${dayLabel(summary.days[0].day)} – ${dayLabel(summary.days[summary.days.length - 1].day)}` : '';
  return (
    <Box sx={{ display: 'grid', gap: 2, mb: 2 }}>
      <EngineNotice summary={summary} />
      <Section title={`Este mes (${monthLabel(m.month)})`}>
        <Box component="dl" aria-label="Totales del mes" sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: 2, m: 0 }}>
          <Stat label="Llamadas" value={formatCount(m.calls)} />
          <Stat label="Tokens" value={formatCount(m.promptTokens + m.completionTokens)} hint={`${formatCount(m.promptTokens)} de entrada · ${formatCount(m.completionTokens)} de salida`} />
          <Stat label="Costo (USD)" value={formatCost(m.costUsd, usd)} />
          <Stat label={`Costo (${summary.currency})`} value={formatCost(m.costLocal, local)} hint="Al tipo de cambio de referencia" />
        </Box>
        {m.budgetUsd ? (
          <Box sx={{ display: 'grid', gap: 0.5 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="body2">
                Presupuesto mensual: {formatCost(m.budgetUsd, usd)} · usado {formatCost(m.spentUsd, usd)}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {percent.toLocaleString(money.locale, { maximumFractionDigits: 1 })} %
              </Typography>
            </Box>
            <LinearProgress
              variant="determinate"
              value={Math.min(100, percent)}
              color={m.paused || percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary'}
              aria-label="Presupuesto mensual usado"
              sx={{ height: 8, borderRadius: 4 }}
            />
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Sin presupuesto mensual: se define en «Ajustes del motor de IA» al activar un modelo de pago.
          </Typography>
        )}
      </Section>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
        <Section title={`Costo por día (${summary.currency})${range ? ` · ${range}` : ''}`}>
          {summary.totals.calls === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Sin llamadas en el período.
            </Typography>
          ) : (
            <Suspense fallback={<Skeleton variant="rectangular" height={220} />}>
              <LlmDayChart days={summary.days} money={local} />
            </Suspense>
          )}
          <Typography variant="body2" color="text.secondary">
            En el período: {formatCount(summary.totals.calls)} {summary.totals.calls === 1 ? 'llamada' : 'llamadas'} · {formatCost(summary.totals.costUsd, usd)} · {formatCost(summary.totals.costLocal, local)}
          </Typography>
        </Section>
        <Section title="Por función">
          {summary.features.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Sin llamadas en el período.
            </Typography>
          ) : (
            <Box component="ul" aria-label="Costo por función" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.25 }}>
              {summary.features.map((f) => (
                <Box component="li" key={f.feature} sx={{ display: 'grid', gap: 0.25 }}>
                  <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {llmFeatureLabels[f.feature as LlmFeature] ?? f.feature}
                    </Typography>
                    <Typography variant="body2">{formatCost(f.costLocal, local)}</Typography>
                  </Box>
                  <LinearProgress variant="determinate" value={maxFeature ? (f.costUsd / maxFeature) * 100 : 0} aria-hidden sx={{ height: 4, borderRadius: 2 }} />
                  <Typography variant="caption" color="text.secondary">
                    {formatCount(f.calls)} {f.calls === 1 ? 'llamada' : 'llamadas'} · {formatCount(f.promptTokens + f.completionTokens)} tokens · {formatCost(f.costUsd, usd)}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
        </Section>
      </Box>
    </Box>
  );
}
