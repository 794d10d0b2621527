import type {
  audienceSendResult,
  ChatSummary,
  labelsMassiveInput,
  labelsMassiveResult,
  LeadSummary,
  sendToAudienceInput,
} from '@mostrador/contract';
import type { z } from 'zod';
import type { ResourceRecord } from '../../components/crud/types';
import { api } from '../../lib/api-client';
import { resourceKeys } from '../../lib/query-keys';

export type LabelsMassiveBody = z.input<typeof labelsMassiveInput>;
export type SendToAudienceBody = z.input<typeof sendToAudienceInput>;
export type AudienceSendResult = z.infer<typeof audienceSendResult>;
export type LabelsMassiveResult = z.infer<typeof labelsMassiveResult>;

const enc = encodeURIComponent;

/** The lead calls beyond the standard list (packages/contract/src/lead-api.ts). */
export const leadsApi = {
  /** SPEC §8: a metric that fails shows its message on the screen, not in the snackbar. */
  summary: (query: { from?: string; to?: string }, signal?: AbortSignal) =>
    api.get<LeadSummary>('/leads/summary', { query, overlay: false, notify: false, signal }),
  cleanLead: (id: string) => api.get<ResourceRecord>(`/clean-leads/${enc(id)}`, { overlay: false }),
  chatsOfCleanLead: (cleanLeadId: string) =>
    api.get<{ payload: ChatSummary[] }>('/chats/get_all_by_cleanlead_id', { query: { cleanLeadId }, overlay: false }),
  labelSegment: (body: LabelsMassiveBody) =>
    api.post<LabelsMassiveResult>('/clean-leads/set_mostrador_labels_massive', body, { success: true }),
  sendToAudience: (body: SendToAudienceBody) =>
    api.post<AudienceSendResult>('/clean-leads/send-to-audience', body, { success: true }),
};

/** Under the leads' keys, so a lead moved or assigned refreshes the summary too. */
export const leadQueryKeys = {
  summary: (query: object) => [...resourceKeys('leads').all, 'summary', query] as const,
  cleanLead: (id: string, companyId: string | null) => [...resourceKeys('clean-leads').detail(id), companyId] as const,
  chatsOfCleanLead: (id: string, companyId: string | null) => [...resourceKeys('chats').all, 'by-clean-lead', id, companyId] as const,
};
