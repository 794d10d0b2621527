import { type DuplicateCandidate, type MergeResult, type Person, type PersonPatch, successMessages } from '@mostrador/contract';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

/** Which record names the person: the chat, the lead or the clean lead (one of them). */
export type PersonKey = { chatId: string } | { leadId: string } | { cleanLeadId: string };

/** The person calls (packages/contract person-api.ts). Reads show their own progress and failures. */
export const personApi = {
  get: (key: PersonKey, signal?: AbortSignal) => api.get<Person>('/people', { query: key, overlay: false, notify: false, signal }),
  update: (id: string, patch: PersonPatch) => api.put<Person>(`/people/${enc(id)}`, patch, { overlay: false, notify: false, success: successMessages.updated }),
  duplicates: (id: string, filter: string, signal?: AbortSignal) =>
    api.get<{ payload: DuplicateCandidate[] }>(`/people/${enc(id)}/duplicates`, { query: { filter: filter || undefined }, overlay: false, notify: false, signal }),
  merge: (id: string, duplicateId: string) => api.post<MergeResult>(`/people/${enc(id)}/merge`, { duplicateId }, { overlay: false, notify: false }),
};
