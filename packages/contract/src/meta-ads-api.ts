import { z } from 'zod';

/**
 * The company's Meta ad account (issue 14, meta_ad_spend; decision 0047): spend, impressions and
 * clicks per campaign and day, pulled from the Marketing API's insights into `ad_spend_daily`.
 *
 *   GET    /meta-ads/account          → MetaAdAccountOut
 *   PUT    /meta-ads/account          metaAdAccountInput → MetaAdAccountOut (the account is read first)
 *   DELETE /meta-ads/account          → {msg}
 *   POST   /meta-ads/sync             → 202 {msg}: the last `META_ADS_SYNC_DAYS` days, as a job
 */
export const META_ADS_SYNC_DAYS = 35;

export const metaAdAccountInput = z
  .object({
    /** `act_<digits>` or the digits alone (Ads Manager shows the digits). */
    adAccountId: z
      .string({ error: 'Escribe el identificador de la cuenta publicitaria' })
      .trim()
      .regex(/^(act_)?\d{5,20}$/, 'Es el número de la cuenta publicitaria (como act_1234567890 o 1234567890)')
      .transform((v) => (v.startsWith('act_') ? v : `act_${v}`)),
    accessToken: z.string({ error: 'Pega el token de acceso' }).trim().min(20, 'El token de acceso parece incompleto').max(1000, 'El token de acceso es demasiado largo'),
  })
  .strict();
export type MetaAdAccountInput = z.input<typeof metaAdAccountInput>;

export const metaAdAccountOut = z.object({
  configured: z.boolean(),
  adAccountId: z.string().optional(),
  name: z.string().optional(),
  currency: z.string().optional(),
  tokenHint: z.string().optional(),
  sandbox: z.boolean().optional(),
  lastSyncAt: z.string().optional(),
  /** Why the last sync failed (Spanish), absent after a good one. */
  lastSyncError: z.string().optional(),
  /** Days and campaigns with spend kept. */
  days: z.number().int().optional(),
  campaigns: z.number().int().optional(),
});
export type MetaAdAccountOut = z.infer<typeof metaAdAccountOut>;

export const metaAdsMessages = {
  notConfigured: 'No hay una cuenta publicitaria de Meta conectada: guárdala en Métricas › Ventas',
  removed: 'Cuenta publicitaria desconectada',
  syncQueued: 'Sincronizando el gasto de los últimos días: las métricas se actualizan al terminar',
  tokenInvalid: 'El token de acceso venció o no es válido: genera uno nuevo en Meta Business (con el permiso ads_read) y guárdalo',
  noPermission: 'El token no tiene el permiso ads_read sobre esta cuenta publicitaria: agrégalo al usuario del sistema en Meta Business',
  noAccount: 'La cuenta publicitaria no existe o el token no tiene acceso a ella: revisa el número act_…',
  rateLimited: 'Meta limitó las consultas de anuncios por un momento: se reintentará en unos minutos',
  disabled: 'La cuenta publicitaria está desactivada en Meta: su gasto histórico se puede leer, pero no hay campañas activas',
} as const;
