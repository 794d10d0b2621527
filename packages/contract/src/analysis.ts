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
