import type { ApiKeyCreated, ApiKeyIn, ApiKeyOut } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** The company's API keys (apps/server/src/modules/api-keys, decision 0071). */
export const apiKeysApi = {
  list: () => api.get<{ payload: ApiKeyOut[] }>('/api-keys', { overlay: false }),
  create: (input: ApiKeyIn) => api.post<ApiKeyCreated>('/api-keys', input, { overlay: false }),
  revoke: (id: string) => api.delete<void>(`/api-keys/${encodeURIComponent(id)}`, { success: 'Clave revocada: ya no funciona', overlay: false }),
};
