import type { ChatAnalysisView, ChatCsat } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { fullDateTime, relativeTime } from '../../../lib/time';
import { channelNames } from '../texts';
import { useNow } from '../hooks/use-now';

/** The «Análisis» section's Spanish texts. */
export const analysisTexts = {
  title: 'Análisis',
  empty: 'Aún sin análisis',
  emptyHint: 'Se analiza solo unos segundos después de los mensajes del cliente.',
  loadError: 'No se pudo cargar el análisis.',
  motive: 'Motivo',
  origin: 'Origen del malestar',
  category: 'Categoría',
  crossSell: 'Venta cruzada',
  quality: (q: number) => `Calidad ${q}/5`,
  qualityHint: 'Calidad de la atención del negocio, de 1 (mala) a 5 (excelente)',
  offeredTaken: 'Ofrecida y aceptada',
  offered: 'Ofrecida, no aceptada',
  notOffered: 'No se ofreció',
  promotion: 'Con promoción personalizada',
  engines: { embedded: 'motor integrado', openai: 'modelo de IA' } as Record<string, string>,
  /** 'Analizado hace 2 h', 'Analizado ayer', 'Analizado el 21 nov.'. */
  analysedAt: (relative: string) => (/^(hace|ahora|ayer|anteayer)/.test(relative) ? `Analizado ${relative}` : `Analizado el ${relative}`),
  ofChat: (channel: string) => `Del último chat analizado (${channel})`,
  /** The customer's own score (CSAT, decision 0100), beside the quality. */
  csat: (label: string) => `Cliente: ${label}`,
  csatHint: (score: number, agent?: string) => `El cliente calificó la atención con ${score}/5 en la encuesta al resolver el chat${agent ? ` (resolvió ${agent})` : ''}`,
  csatWaiting: 'Encuesta enviada, sin respuesta',
} as const;

const sentimentColor = { positive: 'success', neutral: 'default', negative: 'error' } as const;

function crossSellText(a: ChatAnalysisView): string {
  if (!a.crossSell.offered) return analysisTexts.notOffered;
  return a.crossSell.taken ? analysisTexts.offeredTaken : analysisTexts.offered;
}

/** One line of the rows' grid (a description list: the label, then the value). */
function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <Box component="dt" sx={{ color: 'text.secondary', m: 0 }}>
        {label}
      </Box>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </>
  );
}

export interface AnalysisSectionProps {
  analysis: ChatAnalysisView | undefined;
  /** The chat's latest CSAT survey (the chat panel's only). */
  csat?: ChatCsat;
  loading?: boolean;
  error?: boolean;
  /** A lead's or a person's: the channel of the chat the analysis is of. */
  platform?: string;
  /** The heading as its view writes them: the chat panel's small caps, or a drawer's subtitle. */
  heading?: 'caption' | 'subtitle';
}

/**
 * What the analysis says about a chat (issue 31, decision 0092): the sentiment as a coloured
 * chip, the quality, the motive (and, when negative, where the dissatisfaction comes from), the
 * category, cross-selling and when it was analysed; «Aún sin análisis» when it never was.
 */
/** The customer's score as a chip (answered), or what became of the survey (sent, not sent and why). */
function CsatChip({ csat }: { csat: ChatCsat }) {
  if (csat.score !== undefined) {
    return (
      <Tooltip title={analysisTexts.csatHint(csat.score, csat.agentName)}>
        <Chip size="small" variant="outlined" color={csat.score >= 4 ? 'success' : csat.score <= 2 ? 'error' : 'default'} label={analysisTexts.csat(csat.scoreLabel ?? `${csat.score}/5`)} data-testid="analysis-csat" />
      </Tooltip>
    );
  }
  const label = csat.status === 'sent' ? analysisTexts.csatWaiting : csat.statusLabel;
  return (
    <Tooltip title={csat.reason ?? ''}>
      <Chip size="small" variant="outlined" label={label} data-testid="analysis-csat" />
    </Tooltip>
  );
}

export function AnalysisSection({ analysis, csat, loading, error, platform, heading = 'caption' }: AnalysisSectionProps) {
  const now = useNow();
  return (
    <Box component="section" aria-label={analysisTexts.title} data-testid="chat-analysis" sx={{ display: 'grid', gap: 1 }}>
      {heading === 'caption' ? (
        <Typography
          variant="caption"
          component="h3"
          color="text.secondary"
          sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: '0.04em', fontSize: '0.68rem', m: 0 }}
        >
          {analysisTexts.title}
        </Typography>
      ) : (
        <Typography variant="subtitle2" component="h3" sx={{ m: 0 }}>
          {analysisTexts.title}
        </Typography>
      )}
      {loading && !analysis && <Skeleton variant="rounded" height={72} />}
      {!loading && error && !analysis && (
        <Typography variant="body2" color="text.secondary">
          {analysisTexts.loadError}
        </Typography>
      )}
      {!loading && !error && !analysis && (
        <Box>
          <Typography variant="body2">{analysisTexts.empty}</Typography>
          <Typography variant="caption" color="text.secondary">
            {analysisTexts.emptyHint}
          </Typography>
          {csat && (
            <Box sx={{ mt: 0.75 }}>
              <CsatChip csat={csat} />
            </Box>
          )}
        </Box>
      )}
      {analysis && (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.75 }}>
            <Chip size="small" color={sentimentColor[analysis.sentiment]} label={analysis.sentimentLabel} data-testid="analysis-sentiment" />
            <Tooltip title={analysisTexts.qualityHint}>
              <Chip size="small" variant="outlined" label={analysisTexts.quality(analysis.quality)} />
            </Tooltip>
            {csat && <CsatChip csat={csat} />}
          </Box>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5, typography: 'body2', m: 0 }}>
            <Row label={analysisTexts.motive}>{analysis.motiveLabel}</Row>
            {analysis.dissatisfactionOriginLabel && <Row label={analysisTexts.origin}>{analysis.dissatisfactionOriginLabel}</Row>}
            <Row label={analysisTexts.category}>{analysis.categoryLabel}</Row>
            <Row label={analysisTexts.crossSell}>
              {crossSellText(analysis)}
              {analysis.personalisedPromotion && (
                <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
                  {analysisTexts.promotion}
                </Box>
              )}
            </Row>
          </Box>
          <Typography variant="caption" color="text.secondary">
            <Tooltip title={fullDateTime(analysis.analyzedAt)}>
              <time dateTime={analysis.analyzedAt}>{analysisTexts.analysedAt(relativeTime(analysis.analyzedAt, now))}</time>
            </Tooltip>
            {` · ${analysisTexts.engines[analysis.engine] ?? analysis.engine}`}
            {platform && (
              <Box component="span" sx={{ display: 'block' }}>
                {analysisTexts.ofChat(channelNames[platform as keyof typeof channelNames] ?? platform)}
              </Box>
            )}
          </Typography>
        </>
      )}
    </Box>
  );
}
