/**
 * Business constants of SPEC §9 that several resources and modules share.
 */

/** Messaging platforms (SPEC §9). Some resources add their own (leads: web; bots: telegram). */
export const platforms = ['facebook', 'whatsapp', 'instagram'] as const;
export type Platform = (typeof platforms)[number];

/** Display names of every platform a resource may hold. */
export const platformLabels = {
  facebook: 'Facebook',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  web: 'Web',
  telegram: 'Telegram',
} as const satisfies Record<Platform | 'web' | 'telegram', string>;

/** Statuses of a marketing campaign or a massive send (SPEC §4, §9). Transitions: not shown. */
export const campaignStatuses = ['pending', 'processing', 'sent', 'error', 'sent_with_some_errors'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export const campaignStatusLabels: Record<CampaignStatus, string> = {
  pending: 'Pendiente',
  processing: 'En proceso',
  sent: 'Enviado',
  error: 'Error',
  sent_with_some_errors: 'Enviado con errores',
};
