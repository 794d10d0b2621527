import type { Page, TemplateSyncOut, WaTemplateStatus, WhatsappTemplate, WhatsappTemplateInput, WhatsappTemplateList } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { leadQueryKeys, templateKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

/** The template calls (contract whatsapp-templates.ts, decision 0038). */
export interface TemplateListQuery {
  status?: WaTemplateStatus;
  q?: string;
  page: number;
}

export const templateApi = {
  list: (query: TemplateListQuery, signal?: AbortSignal) =>
    api.get<WhatsappTemplateList>('/whatsapp-templates', { query: { ...query, limit: 20 }, overlay: false, signal }),
  create: (body: WhatsappTemplateInput) => api.post<WhatsappTemplate>('/whatsapp-templates', body, { notify: false }),
  remove: (id: string) => api.delete<{ msg: string }>(`/whatsapp-templates/${encodeURIComponent(id)}`, { success: true }),
  sync: () => api.post<TemplateSyncOut>('/whatsapp-templates/sync', undefined, { success: true }),
};

export function useTemplates(query: TemplateListQuery) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: templateKeys.list({ companyId, ...query }),
    queryFn: ({ signal }) => templateApi.list(query, signal),
    enabled: !!companyId,
    placeholderData: keepPreviousData,
    // the sandbox approves a new template by itself in seconds: look again while one just created is in review
    refetchInterval: (q) => {
      const data = q.state.data;
      const fresh = data?.line?.sandbox && data.payload.some((t) => t.status === 'PENDING' && Date.now() - Date.parse(t.createdAt) < 60_000);
      return fresh ? 4_000 : false;
    },
  });
}

export function useTemplateMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: templateKeys.all });
  return {
    create: useMutation({ mutationFn: templateApi.create, onSuccess: refresh }),
    remove: useMutation({ mutationFn: templateApi.remove, onSuccess: refresh }),
    sync: useMutation({ mutationFn: templateApi.sync, onSuccess: refresh }),
  };
}

/** A lead to fill the preview with (GET /leads, the standard resource). */
export interface PreviewLead {
  _id: string;
  name: string;
  telefono?: string;
  email?: string;
}

export function useLeadSearch(text: string) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: leadQueryKeys.templatePreview(companyId, text),
    queryFn: ({ signal }) => api.get<Page<PreviewLead>>('/leads', { query: { filter: text || undefined, limit: 10 }, overlay: false, notify: false, signal }),
    enabled: !!companyId,
    staleTime: 30_000,
  });
}
