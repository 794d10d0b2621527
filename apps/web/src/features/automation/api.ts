import type { AutomationRuleIn, AutomationRuleOut, AutomationRunOut, AutomationSettingsIn, AutomationSettingsOut, AutomationTestOut, ChatSummary, Page } from '@mostrador/contract';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

/** What PUT takes: the whole rule, and optionally its place in the company's order. */
export type AutomationRuleUpdate = AutomationRuleIn & { position?: number };

/** Automation rules and their runs (apps/server/src/modules/automation, issue 29). */
export const automationApi = {
  list: () => api.get<{ payload: AutomationRuleOut[] }>('/automation-rules', { overlay: false }),
  /** The editor shows the server's refusal itself (next to the row it names). */
  create: (input: AutomationRuleIn) => api.post<AutomationRuleOut>('/automation-rules', input, { overlay: false, notify: false, success: 'Regla creada' }),
  save: (id: string, input: AutomationRuleUpdate) => api.put<AutomationRuleOut>(`/automation-rules/${enc(id)}`, input, { overlay: false, notify: false, success: 'Regla guardada' }),
  /** The card's switch and arrows: failures go to the snackbar. */
  update: (id: string, input: AutomationRuleUpdate, success?: string) => api.put<AutomationRuleOut>(`/automation-rules/${enc(id)}`, input, { overlay: false, success }),
  remove: (id: string) => api.delete<void>(`/automation-rules/${enc(id)}`, { overlay: false, success: 'Regla eliminada' }),
  runs: (id: string) => api.get<{ payload: AutomationRunOut[] }>(`/automation-rules/${enc(id)}/runs`, { overlay: false }),
  test: (id: string, chatId: string) => api.post<AutomationTestOut>(`/automation-rules/${enc(id)}/test`, { chatId }, { overlay: false, notify: false }),
  /** The company's settings (decision 0080): the dialog shows the server's refusal itself. */
  settings: () => api.get<AutomationSettingsOut>('/automation-rules/settings', { overlay: false, notify: false }),
  saveSettings: (input: AutomationSettingsIn) =>
    api.put<AutomationSettingsOut>('/automation-rules/settings', input, { overlay: false, notify: false, success: 'Ajustes guardados' }),
  /** The chats to try a rule on: the inbox's search (name, phone, last message). */
  searchChats: (filter: string, signal?: AbortSignal) =>
    api.get<Page<ChatSummary>>('/chats/get_chats', { query: { filter: filter || undefined, page: 1, limit: 10 }, overlay: false, notify: false, signal }),
};
