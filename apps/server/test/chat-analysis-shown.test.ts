import type { ChatDetail, LatestAnalysis, Page, ChatSummary } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * What the analysis says about one chat (issue 31, decision 0092): GET /chats/:id answers the
 * chat's stored analysis with its Spanish labels and when it was made, GET /leads/:id and
 * GET /clean-leads/:id the latest analysed chat's; never another company's, and nothing for a
 * chat never analysed. The inbox's list does not carry it.
 */

let t: TestApp;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;

const get = (url: string, who: Signed, company: string) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: as(who, company) });

async function analyse(chatId: string, values: { sentiment: string; motive: string; origin?: string; quality: number; category: string; offered?: boolean; taken?: boolean; minutesAgo?: number }) {
  await t.sql(
    `insert into chat_analyses (chat_id, company_id, sentiment, motive, dissatisfaction_origin, cross_sell_offered, cross_sell_taken, personalised_promotion,
       quality, category, engine, messages, last_message_at, analyzed_at)
     select c.id, c.company_id, $2, $3, $4, $5, $6, false, $7, $8, 'embedded', 4, c.last_message_at::timestamptz, now() - make_interval(mins => $9)
       from chats c where c.id = $1
     on conflict (chat_id) do update set sentiment = excluded.sentiment, motive = excluded.motive, dissatisfaction_origin = excluded.dissatisfaction_origin,
       cross_sell_offered = excluded.cross_sell_offered, cross_sell_taken = excluded.cross_sell_taken, quality = excluded.quality,
       category = excluded.category, analyzed_at = excluded.analyzed_at`,
    [chatId, values.sentiment, values.motive, values.origin ?? null, values.offered ?? false, values.taken ?? false, values.quality, values.category, values.minutesAgo ?? 0],
  );
}

/** Whether the ISO instant the API answered is the row's analyzed_at (to the millisecond, compared in SQL). */
async function sameInstant(chatId: string, iso: string): Promise<boolean> {
  const [row] = await t.sql<{ same: boolean }>(`select date_trunc('milliseconds', analyzed_at) = $2::timestamptz as same from chat_analyses where chat_id = $1`, [chatId, iso]);
  return row?.same === true;
}

describe('a chat’s analysis in the chat’s and the lead’s calls', () => {
  let person: { clean_lead_id: string; chats: string[]; leads: string[] };
  let lone: { id: string; lead_id: string };
  let acmeChat: string;

  beforeAll(async () => {
    t = await startTestApp();
    [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
    peru = admin.company('Demo Perú');
    acmeCo = acme.company('Acme');
    // a demo person with two chats (two leads), and a chat of another person (the inbox's newest open one, so its first page lists it)
    const [p] = await t.sql<{ clean_lead_id: string; chats: string[]; leads: string[] }>(
      `select l.clean_lead_id, array_agg(c.id::text order by c.id) as chats, array_agg(l.id::text order by c.id) as leads
         from chats c join leads l on l.id = c.lead_id and l.company_id = c.company_id
        where c.company_id = $1 and l.clean_lead_id is not null group by l.clean_lead_id having count(*) >= 2 limit 1`,
      [peru],
    );
    expect(p, 'el demo tiene una persona con dos chats').toBeDefined();
    person = p;
    const [other] = await t.sql<{ id: string; lead_id: string }>(
      `select c.id, c.lead_id from chats c join leads l on l.id = c.lead_id
        where c.company_id = $1 and l.clean_lead_id is distinct from $2 and c.status = 'open'
        order by c.last_message_at desc, c.id desc limit 1`,
      [peru, person.clean_lead_id],
    );
    lone = other;
    // Acme's demo has no chats: one of its own, with its lead
    const [a] = await t.sql<{ id: string }>(
      `with l as (insert into leads (company_id, name, platform, status) values ($1, 'Cliente de Acme', 'whatsapp', 'sin-asignar') returning id)
       insert into chats (company_id, contact_name, platform, lead_id, status, unread_count, created_at, updated_at)
       select $1, 'Cliente de Acme', 'whatsapp', l.id, 'open', 0, now(), now() from l returning id`,
      [acmeCo],
    );
    acmeChat = a.id;
    await t.sql('delete from chat_analyses');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a chat never analysed answers no analysis, in its GET and its lead’s', async () => {
    const res = await get(`/chats/${lone.id}`, admin, peru);
    expect(res.statusCode, res.body).toBe(200);
    const chat = res.json() as ChatDetail;
    expect(chat._id).toBe(lone.id);
    expect(chat.contactName).toBeTruthy();
    expect(chat).not.toHaveProperty('analysis');
    const lead = await get(`/leads/${lone.lead_id}`, admin, peru);
    expect(lead.statusCode, lead.body).toBe(200);
    expect(lead.json()._id).toBe(lone.lead_id);
    expect(lead.json()).not.toHaveProperty('analysis');
  });

  it('the chat’s GET answers its analysis with the Spanish labels, the engine and when', async () => {
    await analyse(lone.id, { sentiment: 'negative', motive: 'reclamo', origin: 'demora', quality: 2, category: 'postventa', offered: true, minutesAgo: 120 });
    const res = await get(`/chats/${lone.id}`, admin, peru);
    expect(res.statusCode, res.body).toBe(200);
    const { analysis } = res.json() as ChatDetail;
    expect(analysis).toMatchObject({
      sentiment: 'negative',
      sentimentLabel: 'Negativo',
      motive: 'reclamo',
      motiveLabel: 'Reclamo o devolución',
      dissatisfactionOrigin: 'demora',
      dissatisfactionOriginLabel: 'Demora en responder',
      category: 'postventa',
      categoryLabel: 'Postventa',
      quality: 2,
      crossSell: { offered: true, taken: false },
      personalisedPromotion: false,
      engine: 'embedded',
      messages: 4,
    });
    expect(await sameInstant(lone.id, analysis?.analyzedAt ?? '')).toBe(true);
    // the lead's GET: the same analysis, naming its chat
    const lead = (await get(`/leads/${lone.lead_id}`, admin, peru)).json() as { analysis?: LatestAnalysis };
    expect(lead.analysis).toMatchObject({ chatId: lone.id, sentiment: 'negative', quality: 2 });
  });

  it('a person’s GET answers the latest analysed of their chats', async () => {
    const [older, newer] = person.chats;
    await analyse(older, { sentiment: 'positive', motive: 'compra', quality: 5, category: 'venta', offered: true, taken: true, minutesAgo: 30 });
    await analyse(newer, { sentiment: 'neutral', motive: 'envio', quality: 4, category: 'informacion', minutesAgo: 5 });
    const res = await get(`/clean-leads/${person.clean_lead_id}`, admin, peru);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { analysis?: LatestAnalysis }).analysis).toMatchObject({ chatId: newer, sentiment: 'neutral', sentimentLabel: 'Neutral', motiveLabel: 'Envío o entrega' });
    // each lead answers its own chat's
    const first = (await get(`/leads/${person.leads[0]}`, admin, peru)).json() as { analysis?: LatestAnalysis };
    expect(first.analysis).toMatchObject({ chatId: older, sentiment: 'positive', crossSell: { offered: true, taken: true } });
  });

  it('another company’s chat or lead is a 404 and shows nothing of the analysis', async () => {
    await analyse(acmeChat, { sentiment: 'positive', motive: 'precio', quality: 3, category: 'venta' });
    const foreign = await get(`/chats/${acmeChat}`, admin, peru);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('sentiment');
    const [acmeLead] = await t.sql<{ lead_id: string }>('select lead_id from chats where id = $1', [acmeChat]);
    const lead = await get(`/leads/${acmeLead.lead_id}`, admin, peru);
    expect(lead.statusCode).toBe(404);
    // and Acme, in its own company, reads its own chat's, never Perú's
    const own = await get(`/chats/${acmeChat}`, acme, acmeCo);
    expect(own.statusCode, own.body).toBe(200);
    expect((own.json() as ChatDetail).analysis).toMatchObject({ sentiment: 'positive', motive: 'precio' });
    expect((await get(`/chats/${lone.id}`, acme, acmeCo)).statusCode).toBe(404);
  });

  it('the inbox’s list does not carry the analysis', async () => {
    const res = await get('/chats/get_chats?limit=50', admin, peru);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<ChatSummary>;
    expect(page.payload.some((c) => c._id === lone.id)).toBe(true);
    expect(page.payload.every((c) => !('analysis' in c))).toBe(true);
  });
});
