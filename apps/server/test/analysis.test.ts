import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeConversation, classifyMessage, embeddedAnalyzer, trainedModels } from '../src/modules/analysis/embedded.js';
import { createAnalysisJobs } from '../src/modules/analysis/jobs.js';
import { normalise } from '../src/modules/analysis/normalise.js';
import { businessPhrases, offerReplies } from '../src/modules/analysis/training/business.js';
import { customerPhrases } from '../src/modules/analysis/training/customer.js';
import type { Analyzer, Conversation } from '../src/modules/analysis/types.js';
import { deliver, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Conversation analysis (issue 14, decision 0044): the normaliser, the embedded engine on
 * phrases of its own (not its training phrases), the conversation rules, and the jobs — an
 * inbound webhook message through the real queue to the chat's row in chat_analyses, the sweep
 * over the demo, and tenant isolation.
 */
const LINE = '109000000000044';
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 15, 0) + minutes * 60_000);

describe('normaliser', () => {
  it('lower case without accents, WhatsApp spelling, repeated letters, laughter and emojis as cues', () => {
    expect(normalise('Holaaa!! Q tal, xq NO llegó?? 😡')).toBe('hola ! que tal porque no llego ? emojineg');
    expect(normalise('graciaaas pq todo bien 👍🏽 jajajaja')).toBe('gracias porque todo bien emojipos jaja');
    expect(normalise('Tb quiero 2, xfa ❤️')).toBe('tambien quiero 2 por favor emojipos');
    expect(normalise('Señora, ¿cuánto vale?')).toBe('senora cuanto vale ?');
  });
});

describe('embedded classifier', () => {
  it('trains in memory in well under a few seconds', () => {
    expect(trainedModels().trainedInMs).toBeLessThan(3000);
  });

  it('reads phrases that are not in its training data', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['una consulta, cuánto me cuesta la docena de rosas?', 'neutral', 'precio'],
      ['pésimo, el microondas llegó abollado y no calienta', 'negative', 'reclamo'],
      ['todo llegó bien, son unos genios, gracias!! 😍', 'positive', undefined],
      ['¿tienen sucursal abierta el domingo en la tarde?', 'neutral', 'horario'],
    ];
    const training = new Set(customerPhrases.map(([t]) => normalise(t)));
    for (const [text, sentiment, motive] of cases) {
      expect(training.has(normalise(text))).toBe(false);
      const r = classifyMessage(text);
      expect([text, r.sentiment.label]).toEqual([text, sentiment]);
      if (motive) expect([text, r.motive.label]).toEqual([text, motive]);
    }
  });

  it('the accuracy sample is kept apart from the training phrases', () => {
    const sample = JSON.parse(readFileSync(new URL('../../../bench/analysis-sample/messages.json', import.meta.url), 'utf8')) as string[][];
    expect(sample.length).toBeGreaterThanOrEqual(300);
    const training = new Set([...customerPhrases.map(([t]) => t), ...businessPhrases.map(([t]) => t), ...offerReplies.map(([t]) => t)].map(normalise));
    const shared = sample.map((r) => r[4]).filter((text) => training.has(normalise(text)));
    expect(shared).toEqual([]);
    // the unseen set too (bench/analysis-sample/UNSEEN.md): it measures messages unlike the training
    const unseen = JSON.parse(readFileSync(new URL('../../../bench/analysis-sample/unseen.json', import.meta.url), 'utf8')) as string[][];
    expect(unseen.length).toBe(240);
    // (emoji-only messages aside: any two of them normalise alike, «🙏❤️» and a training «❤️🙏»)
    const worded = unseen.map((r) => r[4]).filter((text) => /\p{L}/u.test(text));
    expect(worded.length).toBeGreaterThan(200);
    expect(worded.filter((text) => training.has(normalise(text)))).toEqual([]);
    // and the dev set the classifier is tuned on (bench/analysis-sample/DEV.md): tuned on, never trained on
    const dev = JSON.parse(readFileSync(new URL('../../../bench/analysis-sample/dev.json', import.meta.url), 'utf8')) as string[][];
    expect(dev.length).toBeGreaterThanOrEqual(200);
    expect(dev.map((r) => r[4]).filter((text) => /\p{L}/u.test(text) && training.has(normalise(text)))).toEqual([]);
    const check = JSON.parse(readFileSync(new URL('../../../bench/analysis-sample/check.json', import.meta.url), 'utf8')) as string[][];
    expect(check.map((r) => r[4]).filter((text) => /\p{L}/u.test(text) && training.has(normalise(text)))).toEqual([]);
  });
});

describe('conversation rules', () => {
  it('clear complaints make a negative conversation with an origin, a complaint motive and a low quality', () => {
    const a = analyzeConversation({
      now: at(3000),
      messages: [
        { direction: 'in', text: 'hola, hice un pedido el lunes', at: at(0) },
        { direction: 'in', text: 'hasta ahora no llega nada y nadie me da razón', at: at(1) },
        { direction: 'out', text: 'disculpe, lo revisamos', at: at(600) },
        { direction: 'in', text: 'ya pasaron cuatro días, esto es una estafa 😡', at: at(1500) },
        { direction: 'in', text: 'quiero que me devuelvan mi dinero', at: at(1501) },
      ],
    });
    expect(a.sentiment).toBe('negative');
    expect(a.dissatisfactionOrigin).toBeDefined();
    expect(['entrega', 'demora', 'pago']).toContain(a.dissatisfactionOrigin);
    expect(['reclamo', 'envio']).toContain(a.motive);
    expect(a.category).toBe('postventa');
    expect(a.quality).toBeLessThanOrEqual(2);
  });

  it('a purchase with a cross-sell offered and taken, answered quickly and kindly', () => {
    const a = analyzeConversation({
      now: at(60),
      messages: [
        { direction: 'in', text: 'hola! quiero comprar la cafetera italiana de la foto', at: at(0) },
        { direction: 'out', text: 'hola, claro que sí, cuesta 120 soles. ¿te agrego también el café de especialidad para acompañarla?', at: at(2) },
        { direction: 'in', text: 'sí, agrégame uno también', at: at(4) },
        { direction: 'out', text: 'listo, gracias por tu compra 😊', at: at(5) },
        { direction: 'in', text: 'genial, muchas gracias!', at: at(6) },
      ],
    });
    expect(a).toMatchObject({ sentiment: 'positive', crossSellOffered: true, crossSellTaken: true, category: 'venta' });
    expect(a.dissatisfactionOrigin).toBeUndefined();
    expect(a.quality).toBeGreaterThanOrEqual(4);
  });

  it('an offer declined is offered and not taken; a promotion for the customer is seen', () => {
    const a = analyzeConversation({
      messages: [
        { direction: 'in', text: 'buenas, precio del polo azul?', at: at(0) },
        { direction: 'out', text: 'Ana, por ser clienta frecuente te dejamos 10% de descuento solo para ti', at: at(1) },
        { direction: 'out', text: '¿quieres sumar también las medias a juego?', at: at(1) },
        { direction: 'in', text: 'no gracias, solo el polo', at: at(3) },
      ],
    });
    expect(a).toMatchObject({ crossSellOffered: true, crossSellTaken: false, personalisedPromotion: true });
  });

  it('a customer never answered: quality 1', () => {
    const a = analyzeConversation({ now: at(600), messages: [{ direction: 'in', text: 'hola, hacen envíos a Cusco?', at: at(0) }] });
    expect(a.quality).toBe(1);
    expect(a.motive).toBe('envio');
  });
});

describe('jobs', () => {
  let t: TestApp;
  let admin: Signed;
  let acme: Signed;
  let peru: string;
  let acmeCo: string;

  beforeAll(async () => {
    t = await startTestApp({ ANALYSIS: 'on', ANALYSIS_DEBOUNCE_SECONDS: '1' });
    [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
    peru = admin.company('Demo Perú');
    acmeCo = acme.company('Acme');
    const res = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, peru), payload: { phoneNumberId: LINE } });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`no llegó a tiempo: ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  type Row = { chat_id: string; company_id: string; sentiment: string; motive: string; messages: number; engine: string; last_message_at: Date; analyzed_at: Date };
  const rowOf = async (chatId: string) => (await t.sql<Row>('select * from chat_analyses where chat_id = $1', [chatId]))[0];

  it('the sweep analyses the demo’s chats on start, with a spread of sentiments and motives', async () => {
    const pending = () =>
      t.sql<{ n: number }>(
        `select count(*)::int as n from chats c left join chat_analyses a on a.chat_id = c.id
         where c.last_message_at is not null and (a.chat_id is null or c.last_message_at::timestamptz > a.last_message_at)`,
      );
    await until('el demo analizado', async () => ((await pending())[0].n === 0 ? true : undefined), 60_000);
    const spread = await t.sql<{ sentiment: string; n: number }>('select sentiment, count(*)::int as n from chat_analyses where company_id = $1 group by 1', [peru]);
    expect(spread.map((s) => s.sentiment).sort()).toEqual(['negative', 'neutral', 'positive']);
    const motives = await t.sql<{ n: number }>('select count(distinct motive)::int as n from chat_analyses where company_id = $1', [peru]);
    expect(motives[0].n).toBeGreaterThanOrEqual(4);
    const foreign = await t.sql<{ n: number }>('select count(*)::int as n from chat_analyses a join chats c on c.id = a.chat_id where c.company_id <> a.company_id');
    expect(foreign[0].n).toBe(0);
  }, 70_000);

  it('an inbound webhook message leads, through the queue, to the chat’s analysis being written and then updated', async () => {
    const from = '51944400044';
    const first = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, name: 'Rosa Análisis', text: 'hola, a cuánto está el ceviche para 4?' }));
    expect(first.statusCode).toBe(200);
    const chatId = await until('el chat', async () => (await t.sql<{ id: string }>("select id from chats where company_id = $1 and contact_name = 'Rosa Análisis'", [peru]))[0]?.id);
    const written = await until('el análisis', async () => rowOf(chatId));
    expect(written).toMatchObject({ company_id: peru, engine: 'embedded', sentiment: 'neutral', motive: 'precio', messages: 1 });

    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text: 'ya pasó una hora y nadie responde, pésima atención 😡' }));
    const updated = await until('el análisis actualizado', async () => {
      const row = await rowOf(chatId);
      return row && row.messages === 2 ? row : undefined;
    });
    expect(updated.sentiment).toBe('negative');
    expect(new Date(updated.analyzed_at).getTime()).toBeGreaterThan(new Date(written.analyzed_at).getTime());
  }, 60_000);

  it('a company’s job never reads or writes another company’s chat', async () => {
    // an Acme chat made dirty, with a marker text
    const [chat] = await t.sql<{ id: string }>(
      `insert into chats (company_id, contact_name, platform, status, unread_count, created_at, updated_at)
       values ($1, 'Cliente de Acme', 'whatsapp', 'open', 0, now(), now()) returning id`,
      [acmeCo],
    );
    await t.sql(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, 'in', 'text', 'marcador de acme, no lo leas', 'received', now())`,
      [acmeCo, chat.id],
    );
    await t.sql(`update chats set last_message_at = to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') where company_id = $1 and id = $2`, [acmeCo, chat.id]);
    const before = await rowOf(chat.id);
    const seen: Conversation[] = [];
    const spy: Analyzer = {
      name: 'spy',
      analyze: async (c) => {
        seen.push(c);
        return embeddedAnalyzer.analyze(c);
      },
    };
    const jobs = createAnalysisJobs({ db: t.database.db, jobs: t.app.jobs, analyzer: spy, log: t.app.log });
    // the company's own dirty chats, and the Acme chat asked for by id under Demo Perú
    await jobs.analyzeCompany(peru);
    expect(await jobs.analyzeCompany(peru, [chat.id])).toEqual({ analyzed: 0, more: false });
    expect(seen.some((c) => c.messages.some((m) => m.text?.includes('marcador de acme')))).toBe(false);
    const after = await rowOf(chat.id);
    expect(after?.engine).not.toBe('spy');
    if (before) expect(after.company_id).toBe(acmeCo);
    // Acme's own job does analyse it
    await jobs.analyzeCompany(acmeCo, [chat.id]);
    expect(await rowOf(chat.id)).toMatchObject({ company_id: acmeCo, engine: 'spy' });
    expect(seen.some((c) => c.messages.some((m) => m.text?.includes('marcador de acme')))).toBe(true);
  });

  /** Two new chats of Perú, named `name 1` and `name 2`: the first says `first`, the second asks a price. */
  async function twoChats(name: string, first: string): Promise<[string, string]> {
    const chats = await t.sql<{ id: string }>(
      `insert into chats (company_id, contact_name, platform, status, unread_count, last_message_at, created_at, updated_at)
       select $1, $2 || ' ' || g, 'whatsapp', 'open', 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), now(), now()
       from generate_series(1, 2) g returning id`,
      [peru, name],
    );
    const [one, two] = chats.map((c) => c.id);
    await t.sql(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at)
       values ($1, $2, 'in', 'text', $4, 'received', now()), ($1, $3, 'in', 'text', 'hola, precio del queso?', 'received', now())`,
      [peru, one, two, first],
    );
    return [one, two];
  }

  it('an engine that fails on one chat of a batch: the job fails, and the answers it had are written', async () => {
    const [broken, fine] = await twoChats('Lote', 'este rompe el motor');
    const failing: Analyzer = {
      name: 'spy',
      // two chats in flight: the one that fails does not stop the other
      concurrency: 2,
      analyze: async (c) => {
        if (c.messages.some((m) => m.text === 'este rompe el motor')) throw new Error('el motor no respondió');
        return embeddedAnalyzer.analyze(c);
      },
    };
    const jobs = createAnalysisJobs({ db: t.database.db, jobs: t.app.jobs, analyzer: failing, log: t.app.log });
    await expect(jobs.analyzeCompany(peru, [broken, fine])).rejects.toThrow('el motor no respondió');
    expect(await rowOf(broken)).toBeUndefined();
    expect(await rowOf(fine)).toMatchObject({ engine: 'spy', motive: 'precio', messages: 1 });
  });

  it('a chat deleted while its batch runs is skipped; the others are written', async () => {
    const [gone, kept] = await twoChats('Borrable', 'borren este chat');
    const deleting: Analyzer = {
      name: 'spy',
      analyze: async (c) => {
        if (c.messages.some((m) => m.text === 'borren este chat')) await t.sql('delete from chats where company_id = $1 and id = $2', [peru, gone]);
        return embeddedAnalyzer.analyze(c);
      },
    };
    const jobs = createAnalysisJobs({ db: t.database.db, jobs: t.app.jobs, analyzer: deleting, log: t.app.log });
    expect(await jobs.analyzeCompany(peru, [gone, kept])).toEqual({ analyzed: 1, more: false });
    expect(await rowOf(gone)).toBeUndefined();
    expect(await rowOf(kept)).toMatchObject({ engine: 'spy', motive: 'precio', messages: 1 });
  });
});
