import { z } from 'zod';
import { platforms } from './constants.js';

/**
 * AI analysis of conversations (issue 14): what is known of each chat, as the engines (the
 * embedded Spanish classifier, or an OpenAI-compatible model) answer it and the metrics count
 * it. The labels are the screen's Spanish words.
 */
export const sentiments = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof sentiments)[number];
export const sentimentLabels: Record<Sentiment, string> = { positive: 'Positivo', neutral: 'Neutral', negative: 'Negativo' };

/** Why the customer wrote. */
export const consultationMotives = ['precio', 'stock', 'compra', 'envio', 'pago', 'reclamo', 'horario', 'otro'] as const;
export type ConsultationMotive = (typeof consultationMotives)[number];
export const consultationMotiveLabels: Record<ConsultationMotive, string> = {
  precio: 'Precio o cotización',
  stock: 'Disponibilidad o stock',
  compra: 'Hacer un pedido',
  envio: 'Envío o entrega',
  pago: 'Pagos y facturas',
  reclamo: 'Reclamo o devolución',
  horario: 'Horario o ubicación',
  otro: 'Otro',
};

/** Where a negative conversation's dissatisfaction comes from (only for negative ones). */
export const dissatisfactionOrigins = ['demora', 'precio', 'producto', 'entrega', 'atencion', 'pago', 'otro'] as const;
export type DissatisfactionOrigin = (typeof dissatisfactionOrigins)[number];
export const dissatisfactionOriginLabels: Record<DissatisfactionOrigin, string> = {
  demora: 'Demora en responder',
  precio: 'Precio',
  producto: 'Producto o calidad',
  entrega: 'Envío o entrega',
  atencion: 'Trato de la atención',
  pago: 'Cobros y pagos',
  otro: 'Otro',
};

/** The conversation's kind, as the AI sees it. */
export const aiCategories = ['venta', 'soporte', 'postventa', 'informacion', 'spam'] as const;
export type AiCategory = (typeof aiCategories)[number];
export const aiCategoryLabels: Record<AiCategory, string> = {
  venta: 'Venta',
  soporte: 'Soporte',
  postventa: 'Postventa',
  informacion: 'Información',
  spam: 'Spam o sin relación',
};

/** One chat's analysis (the engines' answer, validated). `quality`: 1 (poor) to 5 (excellent) for the business's side. */
export interface ChatAnalysis {
  sentiment: Sentiment;
  motive: ConsultationMotive;
  dissatisfactionOrigin?: DissatisfactionOrigin;
  crossSellOffered: boolean;
  crossSellTaken: boolean;
  personalisedPromotion: boolean;
  quality: 1 | 2 | 3 | 4 | 5;
  category: AiCategory;
}

/**
 * One chat's analysis as the chat's and the lead's calls answer it (issue 31, decision 0092):
 * the stored answer (chat_analyses) with the screen's Spanish labels, the engine that answered
 * and when (`analyzedAt`, ISO 8601). `quality` 1–5; cross-selling: the business offered another
 * product, the customer took it; a personalised promotion was made. Absent when never analysed.
 */
export const chatAnalysisOut = z.object({
  sentiment: z.enum(sentiments),
  sentimentLabel: z.string(),
  motive: z.enum(consultationMotives),
  motiveLabel: z.string(),
  /** Negative ones only: where the dissatisfaction comes from. */
  dissatisfactionOrigin: z.enum(dissatisfactionOrigins).optional(),
  dissatisfactionOriginLabel: z.string().optional(),
  category: z.enum(aiCategories),
  categoryLabel: z.string(),
  quality: z.number().int().min(1).max(5),
  crossSell: z.object({ offered: z.boolean(), taken: z.boolean() }),
  personalisedPromotion: z.boolean(),
  /** embedded | openai: the engine that answered. */
  engine: z.string(),
  /** How many of the chat's messages it read. */
  messages: z.number().int(),
  analyzedAt: z.string(),
});
export type ChatAnalysisView = z.infer<typeof chatAnalysisOut>;

/** A lead's or a person's: the analysis of their latest analysed chat, and which chat it is. */
export const latestAnalysisOut = chatAnalysisOut.extend({ chatId: z.string(), platform: z.enum(platforms) });
export type LatestAnalysis = z.infer<typeof latestAnalysisOut>;
