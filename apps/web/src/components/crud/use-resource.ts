import { type Page, resources, successMessages } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { resourceKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import type { ResourceDescriptor, ResourceRecord } from './types';

/** The list call's query (SPEC §7): sort, order, page, limit, filter, and any field filters (`status`). */
export interface ListParams {
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
  filter?: string;
  /**
   * Keyset paging (decision 0023): the `nextCursor` of the page before, so the server reads the
   * rows after it instead of skipping `(page - 1) × limit` with OFFSET; `page` then only names
   * the page in the answer.
   */
  cursor?: string;
  [field: string]: string | number | undefined;
}

const enc = encodeURIComponent;

/** The generic calls of a resource; the api client shows errors, overlay and success snackbars. */
export function resourceApi(resource: Pick<ResourceDescriptor, 'path' | 'createPath' | 'listPath'>) {
  const base = `/${resource.path}`;
  return {
    list: (params: ListParams, signal?: AbortSignal) =>
      // Lists show their own progress bar: the overlay would cover the screen at every keystroke.
      api.get<Page<ResourceRecord>>(resource.listPath ? `/${resource.listPath}` : base, { query: { ...params }, overlay: false, signal }),
    get: (id: string) => api.get<ResourceRecord>(`${base}/${enc(id)}`, { overlay: false }),
    create: (body: unknown) =>
      api.post<ResourceRecord>(resource.createPath ? `/${resource.createPath}` : base, body, { success: successMessages.created }),
    update: (id: string, body: unknown) =>
      api.put<ResourceRecord>(`${base}/${enc(id)}`, body, { success: successMessages.updated }),
    remove: (id: string, body?: unknown) =>
      api.delete<{ status: number; _id: string }>(`${base}/${enc(id)}`, { body, success: successMessages.deleted }),
  };
}

export function useResourceList(resource: ResourceDescriptor, params: ListParams, enabled = true) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: resourceKeys(resource.key).list({ companyId, listPath: resource.listPath, ...params }),
    queryFn: ({ signal }) => resourceApi(resource).list(params, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useResourceRecord(resource: ResourceDescriptor, id: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: [...resourceKeys(resource.key).detail(id ?? ''), companyId],
    queryFn: () => resourceApi(resource).get(id ?? ''),
    enabled: !!id,
  });
}

/** Create and update; both refresh the resource's lists (and its detail). */
export function useSaveRecord(resource: ResourceDescriptor) {
  const queryClient = useQueryClient();
  const keys = resourceKeys(resource.key);
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: unknown }) =>
      id ? resourceApi(resource).update(id, body) : resourceApi(resource).create(body),
    onSuccess: async (_record, { id }) => {
      if (id) await queryClient.invalidateQueries({ queryKey: keys.details() });
      await queryClient.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

/**
 * PUT {field: value} of one record from a list cell (a lead's status or agent). On success
 * every cached page of the resource shows the new value at once, and a row no longer matching
 * a page's field filter (`status=sin-asignar`) leaves that page; then the lists refetch.
 */
export function useSaveField(resource: ResourceDescriptor) {
  const queryClient = useQueryClient();
  const keys = resourceKeys(resource.key);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Record<string, unknown> }) => resourceApi(resource).update(id, patch),
    onSuccess: async (_record, { id, patch }) => {
      for (const [key, data] of queryClient.getQueriesData<Page<ResourceRecord>>({ queryKey: keys.lists() })) {
        if (!data?.payload?.some((row) => row._id === id)) continue;
        queryClient.setQueryData(key, withFieldChange(data, key[2] as Record<string, unknown> | undefined, id, patch));
      }
      await queryClient.invalidateQueries({ queryKey: keys.all });
    },
  });
}

/** A page after `patch` of record `id`: the row updated, or gone when a field filter of `query` no longer matches it. */
export function withFieldChange(
  page: Page<ResourceRecord>,
  query: Record<string, unknown> | undefined,
  id: string,
  patch: Record<string, unknown>,
): Page<ResourceRecord> {
  const leaves = Object.entries(patch).some(([field, value]) => {
    const wanted = query?.[field];
    return typeof wanted === 'string' && wanted !== '' && (typeof value === 'string' || typeof value === 'number') && String(value) !== wanted;
  });
  if (!leaves) return { ...page, payload: page.payload.map((row) => (row._id === id ? { ...row, ...patch } : row)) };
  return { ...page, payload: page.payload.filter((row) => row._id !== id), totalDocs: Math.max(0, page.totalDocs - 1) };
}

/** DELETE /{id}, with the declared body fields taken from the record (SPEC §7: delete sends a body). */
export function deleteBodyOf(resource: ResourceDescriptor, record: ResourceRecord): Record<string, unknown> | undefined {
  if (!resource.deleteBody) return undefined;
  const body: Record<string, unknown> = {};
  for (const field of Object.keys(resource.deleteBody.shape)) body[field] = record[field];
  return body;
}

export function useDeleteRecord(resource: ResourceDescriptor) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: ResourceRecord) => resourceApi(resource).remove(record._id, deleteBodyOf(resource, record)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys(resource.key).all }),
  });
}

/** The name a person knows a record by. */
export function displayNameOf(record: Record<string, unknown> | undefined, field?: string): string {
  if (!record) return '';
  const pick = (f: string) => (typeof record[f] === 'string' || typeof record[f] === 'number' ? String(record[f]) : '');
  if (field && pick(field)) return pick(field);
  for (const f of ['name', 'nombre', 'title', 'titulo', 'numero']) if (pick(f)) return pick(f);
  const person = [pick('first_name'), pick('last_name')].filter(Boolean).join(' ');
  return person || pick('email') || String(record._id ?? '');
}

/** The API path of a resource key that ref fields point at (the contract's, else the key). */
export function pathOfKey(key: string): string {
  return (resources as Record<string, { path: string } | undefined>)[key]?.path ?? key;
}

/** The most records a ref choice loads (the list's maximum limit). */
export const REF_OPTIONS_LIMIT = 200;

export interface RefOption {
  id: string;
  label: string;
  /** The resource the record belongs to, when a field may point at several. */
  group: string;
  /** That resource's key. */
  key: string;
}

/** The choices of a ref field: records of each referenced resource, by name. */
export function useRefOptions(keys: readonly string[], enabled = true) {
  const { companyId } = useSession();
  const results = useQueries({
    queries: keys.map((key) => {
      const params = { page: 1, limit: REF_OPTIONS_LIMIT } as const;
      return {
        queryKey: resourceKeys(key).list({ companyId, ...params, purpose: 'options' }),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          api.get<Page<ResourceRecord>>(`/${pathOfKey(key)}`, { query: params, overlay: false, notify: false, signal }),
        staleTime: 60_000,
        enabled,
        meta: { quiet: true },
      };
    }),
  });
  const options: RefOption[] = [];
  keys.forEach((key, i) => {
    const label = (resources as Record<string, { labelPlural: string } | undefined>)[key]?.labelPlural ?? key;
    for (const record of results[i]?.data?.payload ?? []) options.push({ id: record._id, label: displayNameOf(record), group: label, key });
  });
  return { options, loading: results.some((r) => r.isLoading) };
}
