import { type TelegramGroupCheckOut, telegramChatTypeLabels } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { telegramKeys } from '../../lib/query-keys';

const SETTLE_MS = 500;
const chatIdPattern = /^(-?\d+|@[A-Za-z]\w{3,31})$/;

/**
 * Under the group's form (decision 0040): what Telegram answers getChat for the id or @username as
 * it is typed — the group's title and type, or why the bot cannot reach it.
 */
export function GroupCheckAside({ chatId }: { chatId: string }) {
  const [settled, setSettled] = useState(chatId);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(chatId), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [chatId]);
  const valid = chatIdPattern.test(settled);
  const check = useQuery({
    queryKey: telegramKeys.groupCheck(settled),
    queryFn: () => api.post<TelegramGroupCheckOut>('/telegram/groups/check', { chatId: settled }, { overlay: false, notify: false }),
    enabled: valid,
    retry: false,
  });
  if (!valid) return null;
  if (check.isPending) return <Alert severity="info">Consultando a Telegram…</Alert>;
  if (check.isError) {
    const msg = check.error instanceof ApiError ? check.error.messages[0] : undefined;
    return <Alert severity="warning">{msg ?? 'No se pudo consultar a Telegram'}</Alert>;
  }
  return (
    <Alert severity="success">
      Telegram: «{check.data.title}» · {telegramChatTypeLabels[check.data.type] ?? check.data.type}
    </Alert>
  );
}
