import type { WebhookDeadLetter } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** The company's failed provider events (apps/server/src/modules/webhooks/dead-letters.ts, decision 0020). */
export const deadLettersApi = {
  list: () => api.get<{ payload: WebhookDeadLetter[] }>('/webhooks/dead-letters', { overlay: false }),
  replay: (id: string) => api.post<WebhookDeadLetter>(`/webhooks/dead-letters/${encodeURIComponent(id)}/replay`, undefined, { success: 'Evento enviado de nuevo a la cola', overlay: false }),
};
