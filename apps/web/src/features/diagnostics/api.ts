import type { healthResponse, versionResponse } from '@mostrador/contract';
import type { z } from 'zod';
import { api } from '../../lib/api-client';

export type HealthResponse = z.output<typeof healthResponse>;
export type VersionResponse = z.output<typeof versionResponse>;

/** Diagnostics report failures on the page itself: no overlay, no snackbar. */
const quiet = { notify: false, overlay: false } as const;

export const diagnosticsApi = {
  health: () => api.get<HealthResponse>('/health', { ...quiet, public: true }),
  // admins only (decision 0024): sent with the session's token and company
  version: () => api.get<VersionResponse>('/version', quiet),
};
