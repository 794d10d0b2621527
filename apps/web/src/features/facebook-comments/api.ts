import type { CommentAnswer, CommentReply, CommentReplyInput } from '@mostrador/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { commentKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The calls of /comment-to-msn and /comentarios-sin-respuesta beyond the standard lists (contract comments-api.ts, decision 0049). */
export const commentsApi = {
  replies: (ruleId: string, signal?: AbortSignal) =>
    api.get<{ payload: CommentReply[]; total: number }>(`/comment-rules/${enc(ruleId)}/replies`, { query: { limit: 100 }, overlay: false, signal }),
  /**
   * Answers a comment of the list. The screen shows what was done («Respuesta enviada por
   * Messenger») instead of the generic 'Registro actualizado con éxito' (SPEC §8: Facebook
   * comments can suppress it).
   */
  answer: (id: string, body: CommentReplyInput) => api.post<CommentAnswer>(`/comments-without-responses/${enc(id)}/reply`, body, { success: true }),
};

export function useRuleReplies(ruleId: string) {
  const { companyId } = useSession();
  return useQuery({ queryKey: commentKeys.replies(ruleId, companyId), queryFn: ({ signal }) => commentsApi.replies(ruleId, signal), enabled: !!ruleId, meta: { quiet: true } });
}
