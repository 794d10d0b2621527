import type { SessionUser } from '@mostrador/contract';
import { api } from '../../lib/api-client';

export interface UpdatePasswordResponse {
  status: 200;
  msg: string;
  /** Present when the password changed is the caller's own: a fresh session. */
  token?: string;
  expiresIn?: number;
  user?: SessionUser;
}

export const profileApi = {
  updatePassword: (userId: string, newPassword: string, currentPassword: string) =>
    api.put<UpdatePasswordResponse>(`/users/${encodeURIComponent(userId)}/update-password`, { newPassword, currentPassword }, {
      success: true,
    }),
};
