import type { TelegramExecuteOut, TelegramExecutionOut, TelegramGroupCheckOut, TelegramSettingsOut } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { resourceKeys, telegramKeys } from '../../lib/query-keys';

/** Telegram's calls from the screens (decision 0040): the bot, a group's check, a routine's execution and its log. */
export function useTelegramSettings() {
  return useQuery({ queryKey: telegramKeys.settings, queryFn: () => api.get<TelegramSettingsOut>('/telegram/settings', { overlay: false }) });
}

export function useSaveTelegramToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.put<TelegramSettingsOut>('/telegram/settings', { token }, { success: 'Bot de Telegram guardado' }),
    onSuccess: (data) => queryClient.setQueryData(telegramKeys.settings, data),
  });
}

export function useTestTelegram() {
  return useMutation({ mutationFn: () => api.post<{ ok: boolean; msg: string }>('/telegram/settings/test', undefined, { overlay: false }) });
}

export function useCheckGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) => api.post<TelegramGroupCheckOut>(`/telegram-groups/${encodeURIComponent(groupId)}/check`, undefined, { overlay: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resourceKeys('telegram-groups').lists() }),
  });
}

export function useExecutions(routineId: string, enabled: boolean) {
  return useQuery({
    queryKey: telegramKeys.executions(routineId),
    queryFn: () => api.get<{ payload: TelegramExecutionOut[] }>(`/telegram-routines/${encodeURIComponent(routineId)}/executions`, { overlay: false }),
    enabled,
  });
}

export function useExecuteRoutine(routineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TelegramExecuteOut>(`/telegram-routines/${encodeURIComponent(routineId)}/execute`, undefined, { success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: telegramKeys.executions(routineId) }),
  });
}
