import { CONVERSION_BATCH_MAX } from '@mostrador/contract';
import { isSandboxAdsToken } from './ads.js';
import { graphJson, ProviderError } from './send.js';

/**
 * A client of Meta's Conversions API for business messaging (decision 0098):
 * `POST {GRAPH_API_URL}/{dataset_id}/events` with `{data: [...]}` (at most 1,000 events), answering
 * `{events_received, messages, fbtrace_id}`; errors `{error:{message, type, code, error_subcode,
 * fbtrace_id}}` become a ProviderError with the code, type and trace. The token goes as a bearer
 * header (the Graph API takes it there as well as `?access_token=`), so it never sits in a URL that
 * a proxy or a log keeps. Through the one Meta path (send.ts `graphJson`, GRAPH_API_URL's version).
 * A token that starts with «sandbox» never reaches Meta: the demo's dataset takes every event.
 */
export interface ConversionsAnswer {
  eventsReceived: number;
  fbtraceId?: string;
}

export interface ConversionsClient {
  send(accessToken: string, datasetId: string, events: object[]): Promise<ConversionsAnswer>;
}

/** Codes worth waiting out (rate limits, Meta's temporary trouble): 4, 17, 32, 613, 80004; and HTTP 5xx/429/network. */
const RETRY_CODES = new Set([1, 2, 4, 17, 32, 341, 613, 80004]);
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  const { httpStatus, code } = error.details;
  if (code !== undefined && RETRY_CODES.has(code)) return true;
  return httpStatus === undefined || httpStatus === 429 || httpStatus >= 500;
}

export function createConversionsClient(baseUrl: string): ConversionsClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async send(accessToken, datasetId, events) {
      if (events.length > CONVERSION_BATCH_MAX) throw new Error(`at most ${CONVERSION_BATCH_MAX} events a request`);
      if (isSandboxAdsToken(accessToken)) return { eventsReceived: events.length, fbtraceId: 'sandbox' };
      const body = await graphJson<{ events_received?: number; fbtrace_id?: string }>(
        `${base}/${encodeURIComponent(datasetId)}/events`,
        accessToken,
        { method: 'POST', body: { data: events } },
        'Meta rechazó los eventos',
      );
      return { eventsReceived: Number(body?.events_received ?? 0), ...(body?.fbtrace_id ? { fbtraceId: String(body.fbtrace_id).slice(0, 100) } : {}) };
    },
  };
}
