/**
 * Query-key factory (STYLE.md, after Medusa): `[key, 'list', query]`, `[key, 'detail', id]`.
 * Mutations invalidate `lists()`; switching company invalidates everything.
 */
export function createQueryKeys<K extends string>(key: K) {
  return {
    all: [key] as const,
    lists: () => [key, 'list'] as const,
    list: <Q>(query: Q) => [key, 'list', query] as const,
    details: () => [key, 'detail'] as const,
    detail: (id: string | number) => [key, 'detail', id] as const,
  };
}

export type QueryKeys<K extends string = string> = ReturnType<typeof createQueryKeys<K>>;

const resourceKeyCache = new Map<string, QueryKeys>();

/** The keys of a resource by its API key (`brands`, `equipos-de-ventas`): one factory for all of them. */
export function resourceKeys(key: string): QueryKeys {
  let keys = resourceKeyCache.get(key);
  if (!keys) {
    keys = createQueryKeys(key);
    resourceKeyCache.set(key, keys);
  }
  return keys;
}

export const queryKeys = {
  health: createQueryKeys('health'),
  version: createQueryKeys('version'),
  registrationToken: createQueryKeys('register-corporation'),
  users: resourceKeys('users'),
  companies: resourceKeys('companies'),
  permissions: createQueryKeys('permissions'),
  /** A group's members: `['groups', 'detail', id, 'users']`. */
  groupMembers: (groupId: string) => [...resourceKeys('groups').detail(groupId), 'users'] as const,
};
