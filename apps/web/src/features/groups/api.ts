import { type CompanyUser, type Page, successMessages } from '@mostrador/contract';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export interface Group {
  _id: string;
  name: string;
  description?: string;
}

/** The most users the member picker lists (the list's maximum limit). */
export const MEMBER_CHOICES_LIMIT = 200;

export const groupsApi = {
  get: (id: string) => api.get<Group>(`/groups/${enc(id)}`, { overlay: false }),
  members: (id: string) => api.get<{ payload: CompanyUser[] }>(`/groups/${enc(id)}/users`, { overlay: false }),
  /** Every user of the company, by name. */
  companyUsers: () =>
    api.get<Page<CompanyUser>>('/users', { query: { limit: MEMBER_CHOICES_LIMIT, sort: 'name', order: 'asc' }, overlay: false }),
  /** Replaces the member list (SPEC §7: PUT /groups/{id}/users/). */
  setMembers: (id: string, userIds: string[]) =>
    api.put<{ status: number; msg: string }>(`/groups/${enc(id)}/users/`, { userIds }, { success: successMessages.usersUpdated }),
};
