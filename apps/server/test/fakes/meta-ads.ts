import type { FakeGraphRoute } from './meta.js';

/**
 * A Meta ad account on the fake Graph API (fakes/meta.ts), as the Marketing API answers it:
 * `GET /v21.0/act_<id>?fields=name,currency,account_status` and
 * `GET /v21.0/act_<id>/insights?level=ad&time_increment=1&fields=ad_id,campaign_id,…&time_range={…}`,
 * `pageSize` rows a page with `paging.next` (an absolute link on Meta's host, cursor `after`).
 * It checks the bearer token, that the fields asked are the ones the metrics need, and the
 * range; `fail` makes the next calls answer a Graph error (190 expired token, 17 rate limit…).
 */
export interface FakeAdAccount {
  route: FakeGraphRoute;
  /** Rows Meta holds: one per campaign and day with spend. */
  rows: Array<{ day: string; adId: string; campaignId: string; campaignName: string; spend: string; impressions: string; clicks: string }>;
  pageSize: number;
  fail?: { status: number; code: number; message: string };
  calls: string[];
}

export function fakeAdAccount(token: string, accountId: string, account = { name: 'Bodega Lucho Ads', currency: 'PEN' }): FakeAdAccount {
  const state: FakeAdAccount = { route, rows: [], pageSize: 2, calls: [] };
  function route(...[call, answer]: Parameters<FakeGraphRoute>): boolean {
    const url = new URL(call.path, 'http://graph.local');
    const m = url.pathname.match(/^\/v21\.0\/(act_\d+)(\/insights)?$/);
    if (!m || call.method !== 'GET') return false;
    state.calls.push(call.path);
    if (call.headers.authorization !== `Bearer ${token}`) {
      answer.graphError(401, { message: 'Error validating access token: Session has expired', code: 190, error_subcode: 463 });
      return true;
    }
    if (state.fail) {
      answer.graphError(state.fail.status, { message: state.fail.message, code: state.fail.code });
      return true;
    }
    if (m[1] !== accountId) {
      answer.graphError(400, { message: `Unsupported get request. Object with ID '${m[1]}' does not exist`, code: 100, error_subcode: 33 });
      return true;
    }
    if (!m[2]) {
      answer.json(200, { id: accountId, ...account, account_status: 1 });
      return true;
    }
    const fields = (url.searchParams.get('fields') ?? '').split(',');
    const range = JSON.parse(url.searchParams.get('time_range') ?? '{}') as { since?: string; until?: string };
    if (url.searchParams.get('level') !== 'ad' || url.searchParams.get('time_increment') !== '1' || !['ad_id', 'campaign_id', 'spend', 'impressions', 'clicks'].every((f) => fields.includes(f)) || !range.since || !range.until) {
      answer.graphError(400, { message: 'Invalid parameter', code: 100 });
      return true;
    }
    const inRange = state.rows.filter((r) => r.day >= (range.since as string) && r.day <= (range.until as string));
    const after = Number(url.searchParams.get('after') ?? 0);
    const page = inRange.slice(after, after + state.pageSize);
    const nextAfter = after + state.pageSize;
    const next = nextAfter < inRange.length ? new URL(`https://graph.facebook.com${url.pathname}?${new URLSearchParams({ ...Object.fromEntries(url.searchParams), after: String(nextAfter) })}`).toString() : undefined;
    answer.json(200, {
      data: page.map((r) => ({ ad_id: r.adId, campaign_id: r.campaignId, campaign_name: r.campaignName, spend: r.spend, impressions: r.impressions, clicks: r.clicks, date_start: r.day, date_stop: r.day })),
      paging: { cursors: { before: String(after), after: String(nextAfter) }, ...(next ? { next } : {}) },
    });
    return true;
  }
  return state;
}
