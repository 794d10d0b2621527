import type { audienceSendResult, labelsMassiveInput, labelsMassiveResult, LeadSummary, sendToAudienceInput } from '@mostrador/contract';
import type { z } from 'zod';
import { api } from '../../lib/api-client';

export type AudienceSendResult = z.infer<typeof audienceSendResult>;
export type LabelsMassiveResult = z.infer<typeof labelsMassiveResult>;

/** The lead calls beyond the standard list (packages/contract/src/lead-api.ts). */
export const leadsApi = {
  /** SPEC §8: a metric that fails shows its message on the screen, not in the snackbar. */
  summary: (query: { from?: string; to?: string }, signal?: AbortSignal) =>
    api.get<LeadSummary>('/leads/summary', { query, overlay: false, notify: false, signal }),
  labelSegment: (body: z.input<typeof labelsMassiveInput>) =>
    api.post<LabelsMassiveResult>('/clean-leads/set_mostrador_labels_massive', body, { success: true }),
  sendToAudience: (body: z.input<typeof sendToAudienceInput>) =>
    api.post<AudienceSendResult>('/clean-leads/send-to-audience', body, { success: true }),
};
