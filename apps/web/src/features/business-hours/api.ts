import type { BusinessHoursIn, BusinessHoursOut } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** The company's business hours (apps/server/src/modules/business-hours, decision 0078). */
export const businessHoursApi = {
  get: () => api.get<BusinessHoursOut>('/business-hours', { overlay: false }),
  /** The screen shows the server's refusal itself, next to the field it names. */
  save: (input: BusinessHoursIn) => api.put<BusinessHoursOut>('/business-hours', input, { overlay: false, notify: false, success: 'Horario guardado' }),
};
export const businessHoursKey = (companyId: string | null) => ['business-hours', companyId] as const;
