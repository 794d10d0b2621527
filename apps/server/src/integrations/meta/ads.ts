import { metaAdsMessages } from '@mostrador/contract';
import { graphJson, ProviderError } from './send.js';

/**
 * A client of the Marketing API for what the metrics need (decision 0047): the ad account
 * (`GET /act_<id>?fields=name,currency,account_status`) and its insights per ad and day
 * (`GET /act_<id>/insights?level=ad&time_increment=1&fields=ad_id,campaign_id,…&time_range=…`), every page
 * (`paging.next`, 100 pages at most). The token needs `ads_read`. A token that starts with
 * «sandbox» never reaches Meta: the demo's account answers deterministic figures.
 */
export interface AdAccount {
  id: string;
  name: string;
  currency: string;
  /** 1 active, 2 disabled, … (Meta's account_status). */
  status: number;
}

export interface CampaignDay {
  day: string;
  /** The ad (insights are read per ad, to map each ad to its campaign for attribution). */
  adId: string;
  campaignId: string;
  campaignName: string;
  spend: number;
  impressions: number;
  clicks: number;
}

export interface AdsClient {
  account(accessToken: string, adAccountId: string): Promise<AdAccount>;
  insights(accessToken: string, adAccountId: string, range: { since: string; until: string }): Promise<CampaignDay[]>;
}

const MAX_PAGES = 100;
export const isSandboxAdsToken = (token: string) => token.startsWith('sandbox');

/** Meta's refusal in the words an owner acts on: the token, the permission, the account, the rate. */
export function adsFailure(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error;
  const { code, subcode, httpStatus } = error.details;
  if (code === 190 || httpStatus === 401) throw new ProviderError(metaAdsMessages.tokenInvalid, error.details);
  if (code === 10 || code === 200 || code === 294 || (code !== undefined && code >= 200 && code < 300)) throw new ProviderError(metaAdsMessages.noPermission, error.details);
  if (code === 100 || code === 803 || httpStatus === 404) throw new ProviderError(metaAdsMessages.noAccount, { ...error.details, notFound: true });
  if (code === 4 || code === 17 || code === 613 || code === 80000 || code === 80004 || subcode === 2446079 || httpStatus === 429) {
    throw new ProviderError(metaAdsMessages.rateLimited, { ...error.details, httpStatus: 429 });
  }
  throw error;
}

type InsightRow = { ad_id?: string; campaign_id?: string; campaign_name?: string; spend?: string; impressions?: string; clicks?: string; date_start?: string };
type Page = { data?: InsightRow[]; paging?: { next?: string } };

export function createAdsClient(baseUrl: string): AdsClient {
  const base = baseUrl.replace(/\/+$/, '');
  const sandbox = createSandboxAdsClient();
  return {
    async account(accessToken, adAccountId) {
      if (isSandboxAdsToken(accessToken)) return sandbox.account(accessToken, adAccountId);
      try {
        const body = await graphJson<{ id?: string; name?: string; currency?: string; account_status?: number }>(
          `${base}/${encodeURIComponent(adAccountId)}?fields=name,currency,account_status`,
          accessToken,
          { method: 'GET' },
          'Meta no dio la cuenta publicitaria',
        );
        return { id: body.id ?? adAccountId, name: body.name ?? adAccountId, currency: body.currency ?? 'USD', status: body.account_status ?? 1 };
      } catch (error) {
        adsFailure(error);
      }
    },
    async insights(accessToken, adAccountId, range) {
      if (isSandboxAdsToken(accessToken)) return sandbox.insights(accessToken, adAccountId, range);
      const params = new URLSearchParams({
        level: 'ad',
        time_increment: '1',
        fields: 'ad_id,campaign_id,campaign_name,spend,impressions,clicks',
        time_range: JSON.stringify(range),
        limit: '500',
      });
      let url: string | undefined = `${base}/${encodeURIComponent(adAccountId)}/insights?${params}`;
      const out: CampaignDay[] = [];
      for (let page = 0; url && page < MAX_PAGES; page++) {
        let body: Page;
        try {
          body = await graphJson<Page>(url, accessToken, { method: 'GET' }, 'Meta no dio el gasto de los anuncios');
        } catch (error) {
          adsFailure(error);
        }
        for (const r of body.data ?? []) {
          if (!r.campaign_id || !r.date_start) continue;
          out.push({
            day: r.date_start,
            adId: r.ad_id ?? r.campaign_id,
            campaignId: r.campaign_id,
            campaignName: (r.campaign_name ?? r.campaign_id).slice(0, 300),
            spend: Number(r.spend ?? 0) || 0,
            impressions: Math.trunc(Number(r.impressions ?? 0) || 0),
            clicks: Math.trunc(Number(r.clicks ?? 0) || 0),
          });
        }
        // Meta's next page is an absolute link to its own host: only its path and query are followed, on our base
        const next = body.paging?.next;
        url = next ? `${base}${new URL(next).pathname.replace(/^\/v\d+\.\d+/, '')}${new URL(next).search}` : undefined;
      }
      return out;
    },
  };
}

/** The demo's ads: ad `j` of campaign `i` (the demo's click-to-WhatsApp leads carry these as their referral's source id). */
export const sandboxAdId = (i: number, j: number) => `12022000000000${i}${j}01`;

/** The demo's ad account: three campaigns whose spend follows the weekday, the same every run (a neighbourhood shop's budget: a few dollars a day, so a lead costs what it costs in the region, USD 5–15). */
export function createSandboxAdsClient(): AdsClient {
  const campaigns = [
    { id: '120210000000000001', name: 'Clic a WhatsApp · Gaseosas 2x1', daily: 2.4 },
    { id: '120210000000000002', name: 'Messenger · Canastas Día de la Madre', daily: 1.6 },
    { id: '120210000000000003', name: 'Reconocimiento · Bodega del barrio', daily: 0.9 },
  ];
  return {
    async account(_token, adAccountId) {
      return { id: adAccountId, name: 'Cuenta publicitaria demo (sandbox)', currency: 'USD', status: 1 };
    },
    async insights(_token, _adAccountId, range) {
      const out: CampaignDay[] = [];
      for (let t = Date.parse(`${range.since}T00:00:00Z`); t <= Date.parse(`${range.until}T00:00:00Z`); t += 86_400_000) {
        const d = new Date(t);
        const day = d.toISOString().slice(0, 10);
        const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6 ? 1.3 : 1;
        campaigns.forEach((c, i) => {
          const wobble = 1 + (((d.getUTCDate() * (i + 3)) % 7) - 3) / 20;
          // two ads per campaign, the first spending more
          for (const [j, share] of [0.6, 0.4].entries()) {
            const spend = Math.round(c.daily * weekend * wobble * share * 100) / 100;
            const impressions = Math.round(spend * (900 - i * 150));
            out.push({ day, adId: sandboxAdId(i, j), campaignId: c.id, campaignName: c.name, spend, impressions, clicks: Math.round(impressions * (0.018 - i * 0.004)) });
          }
        });
      }
      return out;
    },
  };
}
