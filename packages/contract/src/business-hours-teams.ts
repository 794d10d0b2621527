import { z } from 'zod';
import { businessHoursOut } from './business-hours.js';

/**
 * A sales team's own business hours (decision 0081), same shape as the company's
 * (businessHoursIn). Under /api (module `settings`):
 *
 *   GET    /business-hours/teams/{teamId}   the team's hours; without its own (`own` false), the company's
 *   PUT    /business-hours/teams/{teamId}   businessHoursIn (whole) → the team's own hours
 *   DELETE /business-hours/teams/{teamId}   back to the company's hours → what GET answers then
 *
 * A team with its own hours takes its agents out of the assignment turn while it is closed, and
 * decides the away message of the chats its agents hold (its text, else the company's).
 */
export const teamHoursMessages = {
  teamNotFound: 'Ese equipo de ventas no existe en esta compañía',
} as const;

export const teamHoursParams = z.object({ teamId: z.uuid({ error: teamHoursMessages.teamNotFound }) });

export const teamHoursOut = businessHoursOut.extend({
  teamId: z.string(),
  /** true: the team saved hours of its own; false: these are the company's (or its defaults). */
  own: z.boolean(),
});
export type TeamHoursOut = z.infer<typeof teamHoursOut>;
