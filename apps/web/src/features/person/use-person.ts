import type { MergeResult, Person, PersonPatch } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { resourceKeys, chatKeys, personKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { type PersonKey, personApi } from './api';

/**
 * The person behind a chat, lead or clean lead (GET /people). `liveAt`: when something the
 * person shows last changed (the chat screen keeps the person's chats live through the events
 * stream); a newer one reloads the person.
 */
export function usePerson(key: PersonKey | undefined, liveAt?: number) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const queryKey = personKeys.person(companyId, key ?? { chatId: '' });
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => personApi.get(key as PersonKey, signal),
    enabled: !!key,
    meta: { quiet: true },
    retry: false,
  });
  const seen = useRef(liveAt);
  useEffect(() => {
    if (!liveAt || seen.current === liveAt) return;
    const first = seen.current === undefined;
    seen.current = liveAt;
    // the first answer arrives with the person's own: only later changes reload it
    if (!first) void queryClient.invalidateQueries({ queryKey, exact: true });
  }, [liveAt, queryClient, queryKey]);
  return query;
}

/** Everything a change of a person may show in: the person views, the inbox and threads, the lead lists. */
function refreshAfter(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: personKeys.all });
  void queryClient.invalidateQueries({ queryKey: chatKeys.all });
  void queryClient.invalidateQueries({ queryKey: resourceKeys('leads').all });
  void queryClient.invalidateQueries({ queryKey: resourceKeys('clean-leads').all });
}

/** PUT /people/:id: name, phone, e-mail or labels. */
export function useUpdatePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PersonPatch }) => personApi.update(id, patch),
    meta: { quiet: true },
    onSuccess: (person: Person) => {
      // the views that show this person get its new state at once, then everything reloads
      queryClient.setQueriesData<Person>({ queryKey: personKeys.all }, (old) => (old && old._id === person._id && 'leads' in old ? person : old));
      refreshAfter(queryClient);
    },
  });
}

/** The people who may be the same one: automatic (shared phone or e-mail) or by the user's search. */
export function useDuplicates(id: string | undefined, filter: string) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: personKeys.duplicates(companyId, id ?? '', filter),
    queryFn: ({ signal }) => personApi.duplicates(id as string, filter, signal),
    enabled: !!id,
    placeholderData: filter ? keepPreviousData : undefined,
    meta: { quiet: true },
  });
}

/** POST /people/:id/merge: the duplicate joins the kept person. */
export function useMergePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keptId, duplicateId }: { keptId: string; duplicateId: string }) => personApi.merge(keptId, duplicateId),
    meta: { quiet: true },
    onSuccess: (result: MergeResult) => {
      queryClient.setQueriesData<Person>({ queryKey: personKeys.all }, (old) => (old && old._id === result.person._id && 'leads' in old ? result.person : old));
      refreshAfter(queryClient);
    },
  });
}
