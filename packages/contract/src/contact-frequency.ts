import { z } from 'zod';

/**
 * /dias-frecuencia (SPEC §2, public; docs/decisions/0017-dias-frecuencia.md): the page a
 * customer opens from a link the business sent them, to choose how often the business may
 * write to them. The link carries a signed token naming the clean lead and its company; no
 * login. The choice is stored on the clean lead (`contactFrequencyDays`, `optOut`).
 *
 *   POST /clean-leads/:id/frequency-link          (staff)  → FrequencyLink
 *   GET  /public/dias-frecuencia/:token           (public) → FrequencyPreference
 *   PUT  /public/dias-frecuencia/:token           (public) frequencyChoiceInput → FrequencyPreference & { msg }
 */
export const contactFrequencyChoices = [
  { value: 'weekly', days: 7, label: 'Cada semana' },
  { value: 'biweekly', days: 15, label: 'Cada 15 días' },
  { value: 'monthly', days: 30, label: 'Una vez al mes' },
  { value: 'opt-out', days: null, label: 'No quiero recibir mensajes' },
] as const;
export type ContactFrequencyChoice = (typeof contactFrequencyChoices)[number]['value'];
export const contactFrequencyValues = contactFrequencyChoices.map((c) => c.value) as [ContactFrequencyChoice, ...ContactFrequencyChoice[]];

/** How long a link stays valid: it travels in messages people open weeks later. */
export const FREQUENCY_LINK_TTL_DAYS = 90;

/** The stored fields of a clean lead → the choice the page shows (a custom number of days shows as the nearest option). */
export function choiceOf(stored: { contactFrequencyDays?: number | null; optOut?: boolean | null }): ContactFrequencyChoice | null {
  if (stored.optOut) return 'opt-out';
  const days = stored.contactFrequencyDays;
  if (!days) return null;
  const options = contactFrequencyChoices.filter((c) => c.days !== null);
  return options.reduce((best, c) => (Math.abs((c.days as number) - days) < Math.abs((best.days as number) - days) ? c : best)).value;
}

/** A choice → the clean lead's fields. */
export function storedOf(choice: ContactFrequencyChoice): { contactFrequencyDays: number | null; optOut: boolean } {
  const found = contactFrequencyChoices.find((c) => c.value === choice);
  return { contactFrequencyDays: found?.days ?? null, optOut: choice === 'opt-out' };
}

export const frequencyTokenParams = z.object({ token: z.string().trim().min(1, 'El enlace no es válido').max(2000, 'El enlace no es válido') });

/** PUT body: one of the options. */
export const frequencyChoiceInput = z
  .object({ choice: z.enum(contactFrequencyValues, { error: 'Elige una de las opciones' }) })
  .strict();
export type FrequencyChoiceInput = z.infer<typeof frequencyChoiceInput>;

/** What the public page shows: whose link it is and the current choice (nothing else about the person). */
export const frequencyPreference = z.object({
  companyName: z.string(),
  choice: z.enum(contactFrequencyValues).nullable(),
  expiresAt: z.string(),
});
export type FrequencyPreference = z.infer<typeof frequencyPreference>;

/** POST /clean-leads/:id/frequency-link: the address to send to the person. */
export const frequencyLink = z.object({ url: z.string(), token: z.string(), expiresAt: z.string() });
export type FrequencyLink = z.infer<typeof frequencyLink>;
