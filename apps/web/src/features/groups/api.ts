import { type CompanyUser, successMessages } from '@mostrador/contract';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

/** The most users the member picker lists (the list's maximum limit). The group and the users come from the generic resource hooks. */
export const MEMBER_CHOICES_LIMIT = 200;

export const groupsApi = {
  members: (id: string) => api.get<{ payload: CompanyUser[] }>(`/groups/${enc(id)}/users`, { overlay: false }),
  /** Replaces the member list (SPEC §7: PUT /groups/{id}/users/). */
  setMembers: (id: string, userIds: string[]) =>
    api.put<{ status: number; msg: string }>(`/groups/${enc(id)}/users/`, { userIds }, { success: successMessages.usersUpdated }),
};
