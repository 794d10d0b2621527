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

export const queryKeys = {
  health: createQueryKeys('health'),
  version: createQueryKeys('version'),
  registrationToken: createQueryKeys('register-corporation'),
  users: createQueryKeys('users'),
};
