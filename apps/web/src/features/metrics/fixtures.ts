import type { MetricName, MetricOutput } from '@mostrador/contract';

/** Faked answers of the metric calls, as the server shapes them (tests only). */
const w = { from: '2026-01-01', to: '2026-02-28', timezone: 'America/Lima' };
const sentimentCounts = (p: number, n: number, neg: number) => [
  { sentiment: 'positive' as const, label: 'Positivo', count: p },
  { sentiment: 'neutral' as const, label: 'Neutral', count: n },
  { sentiment: 'negative' as const, label: 'Negativo', count: neg },
];

export const answers: { [N in MetricName]: MetricOutput<N> } = {
  ceo_dashboard: {
    ...w,
    messages: { inbound: 700, outbound: 534, total: 1234 },
    newChats: 87,
    newLeads: 64,
    newCleanLeads: 41,
    newUsers: 2,
    coverage: 0.925,
    sales: [{ currency: 'PEN', orders: 12, amount: 4580.5 }],
    analysed: 80,
    positiveShare: 0.625,
    negativeShare: 0.125,
    averageQuality: 4.1,
    months: [
      { month: '2026-01', messages: 500, newChats: 40, newLeads: 24, orders: 4, analysed: 30 },
      { month: '2026-02', messages: 734, newChats: 47, newLeads: 40, orders: 8, analysed: 50 },
    ],
  },
  cleanleads_by_month: {
    ...w,
    total: 41,
    monthsAnalysed: 2,
    monthlyAverage: 20.5,
    bestMonth: { month: '2026-02', count: 26 },
    months: [
      { month: '2026-01', count: 15 },
      { month: '2026-02', count: 26 },
    ],
  },
  leads_by_month: {
    ...w,
    total: 64,
    byChannel: [
      { channel: 'whatsapp', count: 40 },
      { channel: 'facebook', count: 14 },
      { channel: 'instagram', count: 7 },
      { channel: 'web', count: 3 },
    ],
    months: [
      { month: '2026-01', channel: 'whatsapp', count: 15 },
      { month: '2026-02', channel: 'whatsapp', count: 25 },
      { month: '2026-02', channel: 'facebook', count: 14 },
      { month: '2026-02', channel: 'instagram', count: 7 },
      { month: '2026-02', channel: 'web', count: 3 },
    ],
  },
  total_messages: {
    ...w,
    inbound: 700,
    outbound: 534,
    total: 1234,
    mainChannel: 'whatsapp',
    byChannel: [
      { channel: 'facebook', inbound: 150, outbound: 100, total: 250, share: 0.2026 },
      { channel: 'whatsapp', inbound: 500, outbound: 400, total: 900, share: 0.7293 },
      { channel: 'instagram', inbound: 50, outbound: 34, total: 84, share: 0.0681 },
    ],
  },
  messages_by_channel_by_month: {
    ...w,
    total: 1234,
    months: [
      { month: '2026-01', channel: 'whatsapp', inbound: 200, outbound: 150, total: 350 },
      { month: '2026-02', channel: 'whatsapp', inbound: 300, outbound: 250, total: 550 },
      { month: '2026-01', channel: 'facebook', inbound: 100, outbound: 50, total: 150 },
      { month: '2026-02', channel: 'facebook', inbound: 50, outbound: 50, total: 100 },
      { month: '2026-01', channel: 'instagram', inbound: 0, outbound: 0, total: 0 },
      { month: '2026-02', channel: 'instagram', inbound: 50, outbound: 34, total: 84 },
    ],
  },
  chats_coverage_by_month: {
    ...w,
    activeChats: 80,
    answeredChats: 74,
    coverage: 0.925,
    months: [
      { month: '2026-01', activeChats: 30, answeredChats: 28, coverage: 0.9333 },
      { month: '2026-02', activeChats: 50, answeredChats: 46, coverage: 0.92 },
    ],
  },
  new_chats: {
    ...w,
    total: 87,
    byChannel: [
      { channel: 'facebook', count: 20 },
      { channel: 'whatsapp', count: 60 },
      { channel: 'instagram', count: 7 },
    ],
    months: [],
  },
  new_users: { ...w, total: 2, months: [] },
  sentiment_analysis: {
    ...w,
    analysed: 80,
    positiveShare: 0.625,
    negativeShare: 0.125,
    counts: sentimentCounts(50, 20, 10),
    origins: [
      { origin: 'demora', label: 'Demora en responder', count: 6 },
      { origin: 'precio', label: 'Precio', count: 1 },
      { origin: 'producto', label: 'Producto o calidad', count: 0 },
      { origin: 'entrega', label: 'Envío o entrega', count: 3 },
      { origin: 'atencion', label: 'Trato de la atención', count: 0 },
      { origin: 'pago', label: 'Cobros y pagos', count: 0 },
      { origin: 'otro', label: 'Otro', count: 0 },
    ],
    crossSellOffered: 20,
    crossSellTaken: 5,
    crossSellEffectiveness: 0.25,
    personalisedPromotions: 9,
  },
  sentiment_analysis_counts: { ...w, analysed: 80, positiveShare: 0.625, negativeShare: 0.125, counts: sentimentCounts(50, 20, 10) },
  sentiment_analysis_by_month: {
    ...w,
    months: [
      { month: '2026-01', analysed: 30, positiveShare: 0.6667, negativeShare: 0.1, counts: sentimentCounts(20, 7, 3) },
      { month: '2026-02', analysed: 50, positiveShare: 0.6, negativeShare: 0.14, counts: sentimentCounts(30, 13, 7) },
    ],
  },
  consultation_motives_counts: {
    ...w,
    analysed: 80,
    counts: [
      { motive: 'precio', label: 'Precio o cotización', count: 30 },
      { motive: 'stock', label: 'Disponibilidad o stock', count: 20 },
      { motive: 'compra', label: 'Hacer un pedido', count: 12 },
      { motive: 'envio', label: 'Envío o entrega', count: 8 },
      { motive: 'pago', label: 'Pagos y facturas', count: 4 },
      { motive: 'reclamo', label: 'Reclamo o devolución', count: 3 },
      { motive: 'horario', label: 'Horario o ubicación', count: 2 },
      { motive: 'otro', label: 'Otro', count: 1 },
    ],
  },
  consultation_motives_by_month: { ...w, months: [] },
  conversation_quality: {
    ...w,
    analysed: 80,
    average: 4.13,
    distribution: [
      { quality: 1, count: 2 },
      { quality: 2, count: 3 },
      { quality: 3, count: 10 },
      { quality: 4, count: 25 },
      { quality: 5, count: 40 },
    ],
    months: [
      { month: '2026-01', analysed: 30, average: 4 },
      { month: '2026-02', analysed: 50, average: 4.2 },
    ],
  },
  ai_categories: {
    ...w,
    analysed: 80,
    counts: [
      { category: 'venta', label: 'Venta', count: 45 },
      { category: 'soporte', label: 'Soporte', count: 15 },
      { category: 'postventa', label: 'Postventa', count: 10 },
      { category: 'informacion', label: 'Información', count: 8 },
      { category: 'spam', label: 'Spam o sin relación', count: 2 },
    ],
  },
  sales_analysis_counts: { ...w, analysed: 80, crossSellOffered: 20, crossSellTaken: 5, crossSellEffectiveness: 0.25, personalisedPromotions: 9 },
  sales_analysis_by_month: { ...w, months: [] },
  sales_by_month: {
    ...w,
    totals: [{ currency: 'PEN', orders: 12, amount: 4580.5 }],
    byStatus: [
      { status: 'created', orders: 3 },
      { status: 'paid', orders: 4 },
      { status: 'shipped', orders: 2 },
      { status: 'done', orders: 3 },
      { status: 'cancelled', orders: 1 },
    ],
    months: [
      { month: '2026-01', currency: 'PEN', orders: 4, amount: 1500 },
      { month: '2026-02', currency: 'PEN', orders: 8, amount: 3080.5 },
    ],
  },
  meta_ad_spend: { ...w, spend: [], impressions: 0, clicks: 0, campaigns: [], months: [] },
  recovered_sales: {
    ...w,
    followups: 14,
    orders: 5,
    revenue: [{ currency: 'PEN', amount: 689.4 }],
    conversion: 0.3571,
    withoutFollowup: { chats: 20, orders: 2, conversion: 0.1 },
    weeks: [
      { week: '2026-02-02', followups: 6, orders: 2, withoutFollowup: 9, ordersWithout: 1 },
      { week: '2026-02-09', followups: 8, orders: 3, withoutFollowup: 11, ordersWithout: 1 },
    ],
  },
};
