import type { ContactFrequencyChoice, FrequencyLink, FrequencyPreference } from '@mostrador/contract';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

/** /dias-frecuencia (decision 0017): the public page's calls (no session) and the staff's link. */
export const frequencyApi = {
  /** The page shows a bad or expired link itself: no snackbar. */
  get: (token: string) =>
    api.get<FrequencyPreference>(`/public/dias-frecuencia/${enc(token)}`, { public: true, notify: false, overlay: false }),
  save: (token: string, choice: ContactFrequencyChoice) =>
    api.put<FrequencyPreference & { msg: string }>(`/public/dias-frecuencia/${enc(token)}`, { choice }, { public: true, notify: false }),
  /** Staff: the link to send to a clean lead. */
  link: (cleanLeadId: string) => api.post<FrequencyLink>(`/clean-leads/${enc(cleanLeadId)}/frequency-link`),
};
