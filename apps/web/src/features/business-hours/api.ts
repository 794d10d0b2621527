import type { BusinessHoursIn, BusinessHoursOut, TeamHoursOut } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** The company's business hours (apps/server/src/modules/business-hours, decision 0078) and its teams' own (decision 0081). */
export const businessHoursApi = {
  get: () => api.get<BusinessHoursOut>('/business-hours', { overlay: false }),
  /** The screen shows the server's refusal itself, next to the field it names. */
  save: (input: BusinessHoursIn) => api.put<BusinessHoursOut>('/business-hours', input, { overlay: false, notify: false, success: 'Horario guardado' }),
  /** A team's hours: its own, else the company's (`own` false). */
  getTeam: (teamId: string) => api.get<TeamHoursOut>(`/business-hours/teams/${teamId}`, { overlay: false }),
  saveTeam: (teamId: string, input: BusinessHoursIn) =>
    api.put<TeamHoursOut>(`/business-hours/teams/${teamId}`, input, { overlay: false, notify: false, success: 'Horario del equipo guardado' }),
  /** Back to the company's hours. */
  removeTeam: (teamId: string) => api.delete<TeamHoursOut>(`/business-hours/teams/${teamId}`, { overlay: false, success: 'El equipo vuelve a usar el horario de la compañía' }),
};
export const businessHoursKey = (companyId: string | null) => ['business-hours', companyId] as const;
export const teamHoursKey = (companyId: string | null, teamId: string) => ['business-hours', companyId, 'team', teamId] as const;
