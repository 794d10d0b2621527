import { z } from 'zod';
import { formMessages } from './messages-es.js';
import { zId, zText } from './fields.js';
import { countryCodes } from './phone.js';
import { roles } from './permissions.js';

/**
 * Organisation calls that are not plain standard resources: companies live at corporation
 * level, users through memberships, group members through a join (SPEC §7 Users, Groups).
 */

/** The time zones of the countries we sell in (SPEC §9), first in a list, with their familiar names. */
const homeTimezones: Record<string, string> = {
  'America/Lima': 'Lima (GMT-5)',
  'America/Santiago': 'Santiago de Chile',
  'America/Bogota': 'Bogotá (GMT-5)',
  'Europe/Madrid': 'Madrid',
};
const regionNames: Record<string, string> = {
  Africa: 'África',
  America: 'América',
  Antarctica: 'Antártida',
  Arctic: 'Ártico',
  Asia: 'Asia',
  Atlantic: 'Atlántico',
  Australia: 'Australia',
  Europe: 'Europa',
  Indian: 'Índico',
  Pacific: 'Pacífico',
};

/**
 * Every IANA time zone a company may keep (/configuracion): the ones this runtime's Intl knows
 * (`Intl.supportedValuesOf('timeZone')`, also what formats dates in it), the four of the
 * countries we sell in first, then UTC, then the rest by name. The server validates with this
 * very list; a runtime without `supportedValuesOf` keeps the first five.
 */
export const timezones: readonly [string, ...string[]] = (() => {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const home = Object.keys(homeTimezones);
  const rest = known.filter((id) => !home.includes(id) && id !== 'UTC').sort();
  return [home[0], ...home.slice(1), 'UTC', ...rest];
})();

/** A time zone's Spanish name: 'Lima (GMT-5)' for ours, 'Buenos Aires (América)', 'Indiana/Knox (América)'. */
export function timezoneLabel(id: string): string {
  if (homeTimezones[id]) return homeTimezones[id];
  if (id === 'UTC') return 'UTC (tiempo universal)';
  const [region, ...place] = id.split('/');
  if (!place.length) return id.replaceAll('_', ' ');
  return `${place.join('/').replaceAll('_', ' ')} (${regionNames[region] ?? region})`;
}

/** Time zones and currencies a company may keep (/configuracion), with their Spanish names. */
export const timezoneLabels: Readonly<Record<string, string>> = Object.fromEntries(timezones.map((id) => [id, timezoneLabel(id)]));
export const currencyLabels = {
  PEN: 'Sol peruano (PEN)',
  CLP: 'Peso chileno (CLP)',
  COP: 'Peso colombiano (COP)',
  EUR: 'Euro (EUR)',
  USD: 'Dólar estadounidense (USD)',
} as const;
const keysOf = <T extends object>(o: T) => Object.keys(o) as [Extract<keyof T, string>, ...Array<Extract<keyof T, string>>];

/** Settings a company keeps (/configuracion). Not shown in the spec: time zone and currency. */
export const companySettings = z
  .object({
    timezone: z.enum(timezones, { error: 'Zona horaria no válida: elige una de la lista (por ejemplo America/Lima)' }),
    currency: z.enum(keysOf(currencyLabels), { error: 'Moneda no válida' }),
  })
  .partial()
  .strict();

export const companyInput = z
  .object({
    name: zText(120),
    country: z.enum(countryCodes, { error: formMessages.required }),
    settings: companySettings.optional(),
  })
  .strict();
export const companyPatch = companyInput.partial();

export const companyOut = z.object({
  _id: z.string(),
  name: z.string(),
  country: z.string(),
  settings: companySettings,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companyOut>;
/** Fields GET /companies sorts by (default name asc). */
export const companySortFields = ['name', 'country', 'createdAt', 'updatedAt'] as const;

/** A member of the current company, as GET /users lists it. */
export const userOut = z.object({
  _id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  disabled: z.boolean(),
  role: z.enum(roles),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyUser = z.infer<typeof userOut>;

/** PUT /users/{id}: a member's names, role and whether they may sign in (all optional). */
export const userPatch = z
  .object({ first_name: zText(80), last_name: zText(80), disabled: z.boolean(), role: z.enum(roles) })
  .partial()
  .strict();

/** Fields GET /users sorts by: `name` (first then last name, the default), email, role, createdAt. */
export const userSortFields = ['name', 'email', 'role', 'createdAt'] as const;

/** PUT /groups/{id}/users/: the whole member list of a group (users of the company). */
export const groupMembersInput = z.object({ userIds: z.array(zId()).max(1000) }).strict();
