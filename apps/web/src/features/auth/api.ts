import type { LoginInput, LoginResponse } from '@mostrador/contract';
import type { z } from 'zod';
import type { forgotInput, resetInput } from '@mostrador/contract';
import { api } from '../../lib/api-client';

export interface MessageResponse {
  status: number;
  msg: string;
}

export const authApi = {
  login: (values: LoginInput) => api.post<LoginResponse>('/login', values, { public: true }),
  forgot: (values: z.output<typeof forgotInput>) =>
    api.post<MessageResponse>('/forgot', values, { public: true }),
  /** Errors are shown on the page (an invalid link is the expected failure). */
  reset: (values: z.output<typeof resetInput>) =>
    api.post<MessageResponse>('/reset', values, { public: true, notify: false }),
  /** Revokes the session server-side; failures do not keep the user signed in. */
  logout: () => api.post<{ status: number }>('/logout', undefined, { refresh: false, notify: false }),
};
