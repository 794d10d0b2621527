import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated.js';

/**
 * A client of the API typed by the OpenAPI document alone (decision 0074): `generated.d.ts` is
 * what openapi-typescript writes from GET /api/docs/json (`npm run lint` regenerates it and
 * type-checks this file and test/openapi.test.ts against it; it is not committed).
 */
export type Api = Client<paths>;

/** What a call carries to prove who it is: an API key (`mst_…`, bound to its company), or a session and its company. */
export type Credential = { session: string; companyId: string } | { apiKey: string };

export function headersOf(credential: Credential): Record<string, string> {
  return 'apiKey' in credential
    ? { authorization: `Bearer ${credential.apiKey}` }
    : { authorization: `Bearer ${credential.session}`, 'x-company-id': credential.companyId };
}

export function apiClient(baseUrl: string, credential: Credential, fetch?: (request: Request) => Promise<Response>): Api {
  return createClient<paths>({ baseUrl, headers: headersOf(credential), ...(fetch ? { fetch } : {}) });
}
