import { z } from 'zod';
import type { ConsultationMotive } from './analysis.js';

/**
 * Sales that would have been lost (issue 30, decision 0089): a chat whose analysis says the
 * person wanted to buy, whose products the reply assistant recognised, that got no order within
 * the company's hours, with no negative sentiment and nothing pending from an agent, gets ONE
 * follow-up: inside the channel's window a text with a cart link prefilled with those products
 * (`/catalogo-digital/{id}?carrito=SKU:2,…`), outside it an approved WhatsApp template the company
 * chose (its cost shown before it is turned on). Never to a person who opted out; never twice for one
 * conversation; a person who wrote or ordered in between is left alone.
 */

/** The analysis motives that mean the person wanted to buy. */
export const RECOVERY_INTENT_MOTIVES = ['compra', 'precio', 'stock', 'pago'] as const satisfies readonly ConsultationMotive[];
/** Hours a chat waits for an order before its follow-up, by default, and the bounds. */
export const RECOVERY_DEFAULT_HOURS = 4;
export const RECOVERY_MAX_HOURS = 72;
/** Orders within this many hours of a follow-up count as recovered. */
export const RECOVERY_WINDOW_HOURS = 72;
/** A conversation older than this (its customer's last message) is not followed up any more. */
export const RECOVERY_MAX_AGE_DAYS = 7;

/** Placeholders of the follow-up's text and template values. */
export const recoveryPlaceholders = { nombre: '{nombre}', enlace: '{enlace}', productos: '{productos}' } as const;
export const RECOVERY_DEFAULT_TEXT = '¡Hola {nombre}! Vimos que te interesó {productos}. Te dejamos tu carrito listo para completar tu pedido: {enlace}';

export const recoveryMessages = {
  hours: `Escribe un número de horas entre 1 y ${RECOVERY_MAX_HOURS}`,
  text: 'Escribe el mensaje del seguimiento',
  textNeedsLink: 'El mensaje debe incluir {enlace}: es el carrito que recibe la persona',
  templateValues: 'Completa los valores de la plantilla',
  unknownTemplate: 'Esa plantilla no existe en esta compañía',
  notApproved: 'La plantilla debe estar aprobada por WhatsApp',
  noCatalog: 'La compañía no tiene un catálogo predeterminado: el carrito del seguimiento se arma con él',
  skipped: {
    noProducts: 'No reconocimos productos del catálogo en la conversación',
    notInCatalog: 'Los productos que pidió no están en el catálogo predeterminado o están agotados',
    windowClosed: 'La ventana de 24 horas está cerrada y no hay plantilla elegida',
    negative: 'La conversación es negativa: pasó a un agente en vez de recibir un seguimiento',
  },
} as const;

export const recoverySettingsIn = z
  .object({
    enabled: z.boolean({ error: 'Indica si el seguimiento está activo' }),
    afterHours: z.int({ error: recoveryMessages.hours }).min(1, recoveryMessages.hours).max(RECOVERY_MAX_HOURS, recoveryMessages.hours),
    text: z
      .string({ error: recoveryMessages.text })
      .trim()
      .min(1, recoveryMessages.text)
      .max(900, 'El mensaje no puede pasar de 900 caracteres')
      .refine((t) => t.includes(recoveryPlaceholders.enlace), recoveryMessages.textNeedsLink),
    /** The approved WhatsApp template sent outside the window; null: outside it, nothing. */
    templateId: z.uuid({ error: recoveryMessages.unknownTemplate }).nullable(),
    /** The template's body values in order ({nombre}, {enlace}, {productos} filled in). */
    templateValues: z.array(z.string().trim().max(300, 'El valor no puede pasar de 300 caracteres'), { error: recoveryMessages.templateValues }).max(10),
  })
  .strict();
export type RecoverySettingsIn = z.input<typeof recoverySettingsIn>;

export const recoverySettingsOut = z.object({
  enabled: z.boolean(),
  afterHours: z.number(),
  text: z.string(),
  templateId: z.string().nullable(),
  templateValues: z.array(z.string()),
  /** What one template follow-up costs (Meta's marketing rate in the company's country), shown before it is chosen. */
  templateCost: z.object({ usd: z.number(), category: z.string() }).nullable(),
  /** Whether the company has a default catalogue (the carts are built with it). */
  catalogId: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type RecoverySettingsOut = z.infer<typeof recoverySettingsOut>;

export const recoveryStatuses = ['sent', 'failed', 'skipped'] as const;
export const recoveryStatusLabels: Record<(typeof recoveryStatuses)[number], string> = { sent: 'Enviado', failed: 'Falló', skipped: 'No enviado' };

export const recoveryFollowupOut = z.object({
  _id: z.string(),
  chatId: z.string(),
  contactName: z.string(),
  status: z.enum(recoveryStatuses),
  kind: z.enum(['text', 'template']).nullable(),
  reason: z.string().nullable(),
  products: z.array(z.object({ sku: z.string(), name: z.string(), quantity: z.number() })),
  cartUrl: z.string().nullable(),
  /** The order the person placed within RECOVERY_WINDOW_HOURS of it, if any. */
  order: z.object({ code: z.string(), total: z.number(), currency: z.string() }).nullable(),
  createdAt: z.string(),
});
export type RecoveryFollowup = z.infer<typeof recoveryFollowupOut>;
export const recoveryFollowupsOut = z.object({ payload: z.array(recoveryFollowupOut) });

/** POST /recovery/run: the sweep now, for the company (what «Revisar ahora» does). */
export const recoveryRunOut = z.object({ sent: z.number(), skipped: z.number(), failed: z.number() });
