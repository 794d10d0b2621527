import type { registerCorporationInput, registrationTokenInfo } from '@mostrador/contract';
import type { z } from 'zod';
import { api } from '../../lib/api-client';

export type RegistrationTokenInfo = z.output<typeof registrationTokenInfo>;
export type RegisterCorporationInput = z.output<typeof registerCorporationInput>;

export interface RegisterCorporationResponse {
  status: 201;
  msg: string;
  corporation: { slug: string };
}

export const registrationApi = {
  /** The page shows an invalid link itself, so no snackbar. */
  checkToken: (token: string) =>
    api.get<RegistrationTokenInfo>(`/register/corporation/${encodeURIComponent(token)}`, {
      public: true,
      notify: false,
    }),
  register: (values: RegisterCorporationInput) =>
    api.post<RegisterCorporationResponse>('/register/corporation', values, { public: true }),
};
