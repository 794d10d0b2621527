import type { ReplySuggestionOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchProducts } from '../src/modules/assistant/matcher.js';
import { type FakeOpenAiServer, startFakeOpenAi } from './fakes/openai.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * «Sugerir respuesta» (issue 30, decision 0087) on the demo catalogue: products matched with
 * accents, typos, sizes, colours and quantities; out of stock reported, never offered; another
 * company's message a 404; the company's model used when configured, and a draft of it that
 * invents a SKU or a price refused (the embedded draft shown) with the call in the ledger.
 */
const KEY = 'sk-test-fake-0000-abcd';
let t: TestApp;
let fake: FakeOpenAiServer;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;

beforeAll(async () => {
  [t, fake] = await Promise.all([startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' }), startFakeOpenAi(KEY)]);
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

let chats = 0;
async function inbound(text: string, companyId = peru, direction = 'in') {
  chats++;
  const [chat] = await t.sql<{ id: string }>(
    `insert into chats (company_id, contact_name, platform, status, unread_count, created_at, updated_at) values ($1, $2, 'whatsapp', 'open', 1, now(), now()) returning id`,
    [companyId, `María Sugerencia ${chats}`],
  );
  const [message] = await t.sql<{ id: string }>(
    `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, $3, 'text', $4, $5, now()) returning id`,
    [companyId, chat.id, direction, text, direction === 'in' ? 'received' : 'sent'],
  );
  return { chatId: chat.id, messageId: message.id };
}
const suggest = (ids: { chatId: string; messageId: string }, who = admin, companyId = peru) =>
  t.app.inject({ method: 'POST', url: `/api/chats/${ids.chatId}/messages/${ids.messageId}/suggestion`, headers: as(who, companyId) });
const ok = async (text: string) => {
  const res = await suggest(await inbound(text));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReplySuggestionOut;
};
const skusOf = (s: ReplySuggestionOut) => s.products.map((p) => p.sku);

describe('matching', () => {
  it('finds products without accents, with typos, plurals and capitals', async () => {
    expect((await matchProducts(t.database.db, peru, 'tienen cafe altomayo?')).map((p) => p.sku)).toEqual(['CA-180']);
    expect((await matchProducts(t.database.db, peru, 'hola quisiera 2 paquetes de galleta casimo de menta')).map((p) => p.sku)).toEqual(['GC-MENTA']);
    expect((await matchProducts(t.database.db, peru, 'CHAMPU HEAD AND SHOLDERS')).map((p) => p.sku)).toEqual(['HS-375']);
    const arroz = await matchProducts(t.database.db, peru, 'precio del arros costeño x2');
    expect(arroz.map((p) => [p.sku, p.quantity])).toEqual([['AC-5KG', 2]]);
  });

  it('picks the size and colour asked, and says it in the draft with the price in soles', async () => {
    const [azul] = await t.sql<{ id: string }>(`select id from colors where company_id = $1 and name = 'Azul marino'`, [peru]);
    const [row] = await t.sql<{ variants: Array<{ size?: string; colorId?: string; stock: number }> }>(`select variants from products where company_id = $1 and sku = 'POLO-PIMA'`, [peru]);
    const variants = row.variants.map((v) => (v.size === 'M' && v.colorId === azul.id ? { ...v, stock: 3 } : v));
    await t.sql(`update products set variants = $2::jsonb, updated_at = now() where company_id = $1 and sku = 'POLO-PIMA'`, [peru, JSON.stringify(variants)]);
    const s = await ok('Buenas, tienen el polo pima en talla M color azul?');
    expect(s.engine).toBe('embedded');
    expect(s.products.length).toBe(1);
    expect(s.products[0]).toMatchObject({ name: 'Polo algodón pima clásico', variant: { size: 'M', color: 'Azul marino' }, price: 49.9, currency: 'PEN' });
    expect(s.products[0].sku).toMatch(/^POLO-PIMA-M-\d$/);
    expect(s.draft).toContain('Polo algodón pima clásico');
    expect(s.products[0]).toMatchObject({ stock: 3, available: true });
    expect(s.draft).toMatch(/S\/\s49\.90/);
    expect(s.draft).toContain('quedan 3');
    expect(s.draft).not.toMatch(/POLO-PIMA/);
  });

  it('reports a variant out of stock as such and never offers its price', async () => {
    const [row] = await t.sql<{ variants: Array<{ sku: string; size: string; stock: number }> }>(`select variants from products where company_id = $1 and sku = 'ZAP-ANDES'`, [peru]);
    const soldOut = row.variants.find((v) => v.stock === 0) ?? row.variants[0];
    if (soldOut.stock !== 0) await t.sql(`update products set variants = jsonb_set(variants, '{0,stock}', '0'), updated_at = now() where company_id = $1 and sku = 'ZAP-ANDES'`, [peru]);
    const s = await ok(`hay zapatillas andes numero ${soldOut.size}?`);
    expect(s.products).toEqual([expect.objectContaining({ sku: soldOut.sku, stock: 0, available: false })]);
    expect(s.draft).toMatch(/agotado/);
    expect(s.draft).not.toContain('149');
  });

  it('sees a product change at once (the index is rebuilt when the catalogue moves)', async () => {
    await t.sql(`update products set stock = 0, updated_at = now() where company_id = $1 and sku = 'RB-250'`, [peru]);
    expect((await matchProducts(t.database.db, peru, 'un red bull heladito'))[0]).toMatchObject({ sku: 'RB-250', available: false });
    await t.sql(`update products set stock = 30, price = 7.2, updated_at = now() where company_id = $1 and sku = 'RB-250'`, [peru]);
    expect((await matchProducts(t.database.db, peru, 'un red bull heladito'))[0]).toMatchObject({ sku: 'RB-250', available: true, price: 7.2 });
  });

  it('a message naming no product answers with the quick reply that fits and no products', async () => {
    await t.sql(`insert into respuestas_rapidas (company_id, atajo, texto) values ($1, 'pagos', 'Aceptamos Yape, Plin, transferencia y tarjeta contra entrega.') on conflict do nothing`, [peru]);
    const s = await ok('aceptan yape?');
    expect(s.products).toEqual([]);
    expect(s.quickReply).toBe('pagos');
    expect(s.draft).toContain('Yape');
  });
});

describe('scope', () => {
  it('another company’s message, an outbound one or one of another chat is a 404', async () => {
    const theirs = await inbound('quiero una inca kola', acmeCo);
    expect((await suggest(theirs)).statusCode).toBe(404);
    const own = await suggest(theirs, acme, acmeCo);
    expect(own.statusCode).toBe(200);
    // their catalogue, never Demo Perú's: its index is the company's own
    expect(skusOf(own.json() as ReplySuggestionOut)).not.toContain('IK-500');
    const outbound = await inbound('Sí, tenemos Inca Kola', peru, 'out');
    expect((await suggest(outbound)).statusCode).toBe(404);
    const mine = await inbound('quiero una inca kola');
    expect((await suggest({ chatId: outbound.chatId, messageId: mine.messageId })).statusCode).toBe(404);
  });
});

describe('the company’s model', () => {
  const ledger = () =>
    t.sql<{ outcome: string; feature: string; error: string | null; prompt_tokens: number }>(
      `select outcome, feature, error, prompt_tokens from llm_tracker where company_id = $1 and name like 'Sugerencia de respuesta%' order by created_at desc`,
      [peru],
    );
  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/llm/settings',
      headers: as(admin, peru),
      payload: { enabled: true, baseUrl: fake.url, model: 'gpt-4o-mini', apiKey: KEY, monthlyBudgetUsd: 5 },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('writes the draft when it states only what the catalogue has, with the products and notes in its prompt', async () => {
    fake.answer = { draft: '¡Hola María! Sí, tenemos Café Altomayo 180 g a S/ 16.90. ¿Te lo separo?' };
    const s = await ok('tienen cafe altomayo?');
    expect(s).toMatchObject({ engine: 'llm', draft: fake.answer.draft });
    expect(s.fallbackReason).toBeUndefined();
    const prompt = JSON.stringify(fake.log.at(-1)?.body);
    expect(prompt).toContain('Café Altomayo 180 g');
    expect((await ledger())[0]).toMatchObject({ outcome: 'ok', feature: 'chat' });
  });

  it('refuses a draft that invents a SKU: the embedded draft is shown and the call is in the ledger', async () => {
    fake.answer = { draft: 'Tenemos el Café Altomayo (código CAF-999) a S/ 16.90.' };
    const s = await ok('tienen cafe altomayo?');
    expect(s.engine).toBe('embedded');
    expect(s.fallbackReason).toMatch(/SKU.*CAF-999/);
    expect(s.draft).not.toContain('CAF-999');
    expect(s.draft).toContain('Café Altomayo');
    const [row] = await ledger();
    expect(row).toMatchObject({ outcome: 'fallback', feature: 'chat', prompt_tokens: 1200 });
    expect(row.error).toContain('CAF-999');
  });

  it('refuses a draft that invents a price or a stock', async () => {
    fake.answer = { draft: 'Sí, el Café Altomayo está a S/ 12.50, aprovecha.' };
    const price = await ok('tienen cafe altomayo?');
    expect(price).toMatchObject({ engine: 'embedded' });
    expect(price.fallbackReason).toMatch(/precio.*12\.50/);
    fake.answer = { draft: 'Sí, el Café Altomayo está a S/ 16.90 y quedan 999 unidades.' };
    const stock = await ok('tienen cafe altomayo?');
    expect(stock.fallbackReason).toMatch(/stock/);
    expect((await ledger()).slice(0, 2).map((r) => r.outcome)).toEqual(['fallback', 'fallback']);
  });

  it('a model that fails is a fallback too', async () => {
    fake.mode = 'http500';
    const s = await ok('tienen cafe altomayo?');
    fake.mode = 'ok';
    expect(s.engine).toBe('embedded');
    expect(s.fallbackReason).toMatch(/no respondió/);
    expect((await ledger())[0].outcome).toBe('fallback');
  });
});
