import { z } from 'zod';
import { formMessages } from './messages-es.js';

/**
 * CSAT the customer gives (issue 31, decision 0100): when a WhatsApp chat is resolved, the
 * company (when it turned it on) asks the customer, through the chat's own send, how they were
 * attended — three reply buttons (Mal · Regular · Bien) or a 1–5 list — and the customer's tap is
 * stored as the chat's score (1–5), with the agent who resolved it. Under /api:
 *
 *   GET /csat/settings      the company's survey settings (module `settings`, read)
 *   PUT /csat/settings      csatSettingsIn → the settings (module `settings`, update)
 *   GET /metrics/csat       { from?, to? } (local days) → per agent: sent, answered, rate, average, satisfied (module `metrics`)
 *
 * GET /chats/:id carries the chat's latest survey (`csat`) beside its analysis.
 */

export const csatStyles = ['buttons', 'list'] as const;
export type CsatStyle = (typeof csatStyles)[number];
export const csatStyleLabels: Record<CsatStyle, string> = { buttons: 'Tres botones (Mal · Regular · Bien)', list: 'Lista del 1 al 5' };

/** WhatsApp's interactive body: at most 1024 characters. */
export const CSAT_QUESTION_MAX = 1024;
export const CSAT_DEFAULT_QUESTION = '¡Gracias por escribirnos! ¿Cómo calificarías la atención que recibiste?';
/** A tap this long after the survey went out is a late reply: just a message. */
export const CSAT_ANSWER_HOURS = 72;
/** Scores from this one up are «satisfied» (4–5, «Bien»). */
export const CSAT_SATISFIED_FROM = 4;

/** The options of each style: the score each one stores, the title the customer taps (buttons ≤ 20, rows ≤ 24 characters). */
export const csatOptions: Record<CsatStyle, ReadonlyArray<{ score: number; title: string }>> = {
  buttons: [
    { score: 1, title: '😞 Mal' },
    { score: 3, title: '😐 Regular' },
    { score: 5, title: '😀 Bien' },
  ],
  list: [
    { score: 1, title: '1 · Muy mala' },
    { score: 2, title: '2 · Mala' },
    { score: 3, title: '3 · Regular' },
    { score: 4, title: '4 · Buena' },
    { score: 5, title: '5 · Excelente' },
  ],
};
/** The list's button (≤ 20 characters). */
export const CSAT_LIST_BUTTON = 'Calificar';

/** The reply id of an option: `csat:<survey id>:<score>` — WhatsApp echoes it in the button_reply / list_reply. */
export const csatReplyId = (surveyId: string, score: number) => `csat:${surveyId}:${score}`;
const REPLY_ID = /^csat:([0-9a-f-]{36}):([1-5])$/i;
/** A reply id's survey and score, or undefined when it is not a survey's. */
export function parseCsatReplyId(id: string | undefined | null): { surveyId: string; score: number } | undefined {
  const m = id ? REPLY_ID.exec(id) : null;
  return m ? { surveyId: (m[1] as string).toLowerCase(), score: Number(m[2]) } : undefined;
}
/** Whether a tap answers a survey (the inbox leaves a resolved chat resolved for it). */
export const isCsatReplyId = (id: string | undefined | null) => parseCsatReplyId(id) !== undefined;

/** The word a score reads as on the screens: the buttons' for 1/3/5, else the list's. */
export function csatScoreLabel(score: number, style: CsatStyle = 'list'): string {
  const option = csatOptions[style].find((o) => o.score === score) ?? csatOptions.list.find((o) => o.score === score);
  return option?.title ?? String(score);
}

export const csatMessages = {
  question: 'Escribe la pregunta que recibirá el cliente',
  questionMax: `La pregunta admite hasta ${CSAT_QUESTION_MAX} caracteres`,
  style: 'Elige botones o lista',
  notWhatsapp: 'La encuesta solo se envía en chats de WhatsApp',
} as const;

export const csatSettingsIn = z
  .object({
    enabled: z.boolean({ error: formMessages.invalid }),
    style: z.enum(csatStyles, { error: csatMessages.style }),
    question: z
      .string({ error: csatMessages.question })
      .trim()
      .min(1, csatMessages.question)
      .max(CSAT_QUESTION_MAX, csatMessages.questionMax),
  })
  .strict();
export type CsatSettingsIn = z.input<typeof csatSettingsIn>;

export const csatSettingsOut = z.object({
  enabled: z.boolean(),
  style: z.enum(csatStyles),
  question: z.string(),
  /** Absent while the company never saved them (the defaults: off). */
  updatedAt: z.string().optional(),
});
export type CsatSettingsOut = z.infer<typeof csatSettingsOut>;

/** A survey's state: sent (waiting), answered, not sent (outside the window, no channel…: `reason`), failed at the provider. */
export const csatStatuses = ['pending', 'sent', 'answered', 'not_sent', 'failed'] as const;
export type CsatStatus = (typeof csatStatuses)[number];
export const csatStatusLabels: Record<CsatStatus, string> = {
  pending: 'Enviando encuesta',
  sent: 'Encuesta sin respuesta',
  answered: 'Encuesta respondida',
  not_sent: 'Encuesta no enviada',
  failed: 'La encuesta no se pudo enviar',
};

/** The chat's latest survey, as GET /chats/:id carries it. */
export const chatCsatOut = z.object({
  status: z.enum(csatStatuses),
  statusLabel: z.string(),
  style: z.enum(csatStyles),
  /** Why it was not sent or failed (Spanish). */
  reason: z.string().optional(),
  sentAt: z.string().optional(),
  score: z.number().int().min(1).max(5).optional(),
  scoreLabel: z.string().optional(),
  answeredAt: z.string().optional(),
  resolvedAt: z.string(),
  /** The agent the resolution is credited to (who resolved it, else the lead's agent). */
  agentName: z.string().optional(),
});
export type ChatCsat = z.infer<typeof chatCsatOut>;

export const csatReportQuery = z
  .object({
    from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Escribe una fecha como 2026-03-01').optional(),
    to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Escribe una fecha como 2026-03-31').optional(),
  })
  .strict();
export type CsatReportQuery = z.infer<typeof csatReportQuery>;

const csatFigures = {
  /** Surveys that went out in the window. */
  sent: z.number().int(),
  answered: z.number().int(),
  /** answered / sent (0–1), null when none went out. */
  responseRate: z.number().nullable(),
  /** Average score 1–5 of the answered, null when none. */
  average: z.number().nullable(),
  /** Share of the answered that scored 4–5 («Bien»), null when none. */
  satisfiedShare: z.number().nullable(),
  /** Resolutions whose survey did not go out (outside the 24-hour window, no channel, a failure). */
  notSent: z.number().int(),
};
export const csatReportOut = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  agents: z.array(z.object({ agentId: z.string().nullable(), agentName: z.string(), ...csatFigures })),
  total: z.object(csatFigures),
});
export type CsatReport = z.infer<typeof csatReportOut>;
