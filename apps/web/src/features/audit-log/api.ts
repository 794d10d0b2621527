import type { AuditPage, AuditQuery } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** What the screen filters by (the URL's query). */
export type AuditFilters = Pick<AuditQuery, 'entity' | 'entityId' | 'actor' | 'from' | 'to'>;

/** The company's audit log (apps/server/src/modules/audit-log, decision 0072): read only. */
export const auditLogApi = {
  page: (filters: AuditFilters, cursor?: string, signal?: AbortSignal) =>
    api.get<AuditPage>('/audit-log', { query: { ...filters, cursor, limit: 50 }, overlay: false, signal }),
};
