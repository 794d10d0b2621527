import { z } from 'zod';
import { zId, zOptionalText } from './fields.js';
import { formMessages } from './messages-es.js';

/**
 * Payments of the company's own orders (issue 30, decisions 0083 and 0084). All under /api:
 *
 *   GET  /payments/mercadopago/settings        the company's Mercado Pago credentials (never answered: only whether set)
 *   PUT  /payments/mercadopago/settings        saves them (a secret left out is kept)
 *   POST /payments/mercadopago/test            the saved access token tried against Mercado Pago (GET /users/me)
 *   POST /orders/{id}/payment-link             a Checkout Pro link for an order still «Creada»
 *   POST /orders/{id}/mark-paid                a payment proved by hand (Yape, Plin, transferencia…)
 *   GET  /orders/{id}/payments                 the order's payments: links, Mercado Pago's and manual ones
 *   GET  /orders/{id}/proof-images             the pictures of the order's chat, to pick a manual payment's proof
 *   POST /webhooks/mercadopago/{companyId}     Mercado Pago's notification (public, signed with x-signature)
 */

export const paymentProviders = ['mercadopago', 'manual'] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** 'link' is a Checkout Pro preference not yet paid; the others are Mercado Pago's statuses, or a manual payment's 'approved'. */
export const paymentStatuses = ['link', 'pending', 'approved', 'rejected', 'refunded'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const paymentStatusLabels: Record<PaymentStatus, string> = {
  link: 'Enlace enviado',
  pending: 'Pendiente',
  approved: 'Aprobado',
  rejected: 'Rechazado',
  refunded: 'Reembolsado',
};

export const manualPaymentMethods = ['yape', 'plin', 'transferencia', 'efectivo', 'otro'] as const;
export type ManualPaymentMethod = (typeof manualPaymentMethods)[number];
export const manualPaymentMethodLabels: Record<ManualPaymentMethod, string> = {
  yape: 'Yape',
  plin: 'Plin',
  transferencia: 'Transferencia',
  efectivo: 'Efectivo',
  otro: 'Otro',
};

export const mercadoPagoSettingsIn = z
  .object({
    /** Write-only: left out, the saved token stays. */
    accessToken: zOptionalText(300).optional(),
    /** The «clave secreta» of the notifications (Tus integraciones → Webhooks). Write-only. */
    webhookSecret: zOptionalText(300).optional(),
    publicKey: zOptionalText(300).optional(),
    sandbox: z.boolean({ error: formMessages.invalid }),
  })
  .strict();
export type MercadoPagoSettingsIn = z.infer<typeof mercadoPagoSettingsIn>;

export const mercadoPagoSettingsOut = z.object({
  configured: z.boolean(),
  accessTokenSet: z.boolean(),
  webhookSecretSet: z.boolean(),
  publicKey: z.string().optional(),
  sandbox: z.boolean(),
  /** Where Mercado Pago must send the notifications (Tus integraciones → Webhooks → URL). */
  notificationUrl: z.string(),
  updatedAt: z.string().optional(),
});
export type MercadoPagoSettingsOut = z.infer<typeof mercadoPagoSettingsOut>;

export const mercadoPagoTestOut = z.object({ ok: z.boolean(), msg: z.string() });
export type MercadoPagoTestOut = z.infer<typeof mercadoPagoTestOut>;

export const paymentLinkOut = z.object({ url: z.string(), preferenceId: z.string(), sandbox: z.boolean() });
export type PaymentLinkOut = z.infer<typeof paymentLinkOut>;

export const markPaidIn = z
  .object({
    amount: z.number({ error: 'Escribe el monto pagado' }).positive('El monto debe ser mayor que cero').max(1e10, 'El monto es demasiado grande'),
    method: z.enum(manualPaymentMethods, { error: 'Elige cómo pagó' }),
    /** An image message of the order's chat: the customer's screenshot of the transfer. */
    proofMessageId: zId().optional(),
    /** Or a file the agent uploaded from their device (a Drive file of the company: an image or a PDF). */
    proofFileId: z.string().trim().regex(/^[A-Za-z0-9_-]{10,64}$/, 'El comprobante subido no es válido').optional(),
    note: zOptionalText(500).optional(),
  })
  .strict()
  .refine((v) => !(v.proofMessageId && v.proofFileId), { message: 'Elige un solo comprobante: una imagen del chat o un archivo subido', path: ['proofFileId'] });
export type MarkPaidIn = z.infer<typeof markPaidIn>;

export const paymentOut = z.object({
  _id: z.string(),
  orderId: z.string(),
  provider: z.enum(paymentProviders),
  status: z.enum(paymentStatuses),
  statusLabel: z.string(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  method: z.string().optional(),
  methodLabel: z.string().optional(),
  providerPaymentId: z.string().optional(),
  preferenceId: z.string().optional(),
  url: z.string().optional(),
  /** Why this payment did not move the order (amount or currency unlike the order's, order already paid or cancelled, a refund). */
  flaggedReason: z.string().optional(),
  proofMessageId: z.string().optional(),
  proofFileId: z.string().optional(),
  /** The proof (the chat message's media, or the uploaded file's address). */
  proofUrl: z.string().optional(),
  /** An uploaded proof's type: an image is shown, a PDF linked. */
  proofMimeType: z.string().optional(),
  note: z.string().optional(),
  byName: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PaymentOut = z.infer<typeof paymentOut>;
export const paymentsOut = z.object({ payload: z.array(paymentOut) });
export type PaymentsOut = z.infer<typeof paymentsOut>;
export const markPaidOut = z.object({ msg: z.string(), payment: paymentOut });
export type MarkPaidOut = z.infer<typeof markPaidOut>;

/** An image message of the order's chat: what a manual payment's proof may be. */
export const proofImageOut = z.object({
  _id: z.string(),
  mediaUrl: z.string(),
  text: z.string().optional(),
  direction: z.string(),
  sentAt: z.string(),
});
export type ProofImageOut = z.infer<typeof proofImageOut>;
export const proofImagesOut = z.object({ payload: z.array(proofImageOut) });

/**
 * POST /chats/{id}/orders/{orderId}/send (issue 30): the order's summary to its customer in the
 * chat, with its Mercado Pago link when asked — in one action. The chat's channel and window rule
 * as any answer (outside WhatsApp's 24 hours it is refused: a template is needed).
 */
export const sendOrderIn = z.object({ paymentLink: z.boolean({ error: 'Indica si va el enlace de pago' }) }).strict();
export type SendOrderIn = z.input<typeof sendOrderIn>;
export const sendOrderOut = z.object({ messageId: z.string(), text: z.string(), url: z.string().optional() });
export type SendOrderOut = z.infer<typeof sendOrderOut>;
