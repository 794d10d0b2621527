import { audienceMessages, type AudienceOverview, type AudienceSendOut, type RealtimeEvent } from '@mostrador/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AudienceClient, audienceRow, createAudienceClient, normaliseAudienceEmail, normaliseAudiencePhone, sha256Hex } from '../src/integrations/meta/audiences.js';
import { processAudienceSend } from '../src/modules/leads/audience.js';
import { fakeAdAccount } from './fakes/meta-ads.js';
import { type FakeAudiences, fakeAudiences, sha256 } from './fakes/meta-audiences.js';
import { type FakeGraph, startFakeGraph } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Facebook Custom Audiences end to end (issue 15, decision 0048) against a fake Marketing API
 * that checks what Meta checks: people normalised and SHA-256 hashed, batches of at most 10,000
 * rows of one upload session, resumed after a crash without sending an accepted batch again,
 * throttling waited out, an expired token said in Spanish on the send, each company its own.
 */
const TOKEN = 'EAAGadsManagementTokenDeAudiencias48';
const ACCOUNT = 'act_4455667788';
const META_ID = '23851999999999001';

let t: TestApp;
let fake: FakeGraph;
let meta: FakeAudiences;
let admin: Signed;
let acme: Signed;
let company: string;
let acmeCo: string;
let big: string;
let small: string;
let audience: string;
const events: AudienceSendOut[] = [];

type Rec = Record<string, unknown> & { _id: string };
const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, companyId: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, companyId), payload });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, s = admin, companyId = company) => {
  const res = await call(s, method, url, companyId, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};

const sendOf = async (id: string) => (await t.sql<Record<string, unknown>>('select * from audience_sends where id = $1', [id]))[0];
const finished = (id: string) => until(() => sendOf(id), (s) => s.status !== 'queued' && s.status !== 'uploading', 60_000);
const members = async (audienceId: string) => (await t.sql<{ n: number }>('select count(*)::int as n from audience_members where audience_id = $1', [audienceId]))[0].n;
const newAudience = async (name: string, facebookAudienceId?: string) => {
  if (facebookAudienceId) meta.audiences.set(facebookAudienceId, { name, rows: new Set() });
  return ((await ok('POST', '/facebook-audiences', { name, ...(facebookAudienceId ? { facebookAudienceId } : {}) })) as Rec)._id;
};
/** A send recorded as the route records it, without queueing it (the test runs the job itself). */
async function recordedSend(audienceId: string, label: string, facebookAudienceId: string | null): Promise<string> {
  const [row] = await t.sql<{ id: string }>(
    `insert into audience_sends (company_id, kind, audience_id, facebook_audience_id, labels, count) values ($1, 'clean-leads', $2, $3, $4::jsonb, 0) returning id`,
    [company, audienceId, facebookAudienceId, JSON.stringify([label])],
  );
  return row.id;
}
const deps = (client: AudienceClient) => ({ db: t.app.database.db, secrets: t.app.secrets, client, realtime: t.app.realtime });

/** 25,000 people with the label: e-mails with stray capitals and spaces, every third with a local phone. */
const BIG = 25_000;
const knownHashes = new Map<string, string>();

beforeAll(async () => {
  meta = fakeAudiences(TOKEN, ACCOUNT);
  const ads = fakeAdAccount(TOKEN, ACCOUNT);
  fake = await startFakeGraph(TOKEN, (c, a) => meta.route(c, a) || ads.route(c, a));
  t = await startTestApp({ GRAPH_API_URL: fake.url });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  acmeCo = acme.company('Acme');
  company = ((await ok('POST', '/companies', { name: 'Bodega Audiencias', country: 'PE', settings: { timezone: 'America/Lima' } }, admin, admin.company('Demo Perú'))) as Rec)._id;
  await ok('PUT', '/meta-ads/account', { adAccountId: ACCOUNT, accessToken: TOKEN });
  big = ((await ok('POST', '/mostrador-labels', { name: 'Clientes 2025', color: '#28156C' })) as Rec)._id;
  small = ((await ok('POST', '/mostrador-labels', { name: 'Mayoristas', color: '#1E90FF' })) as Rec)._id;
  await t.sql(
    `insert into clean_leads (company_id, name, status, mostrador_labels, details, email, telefono)
     select $1, 'Persona ' || i, 'sin-asignar', $2::jsonb, '[]'::jsonb, '  Cliente.' || i || '@Correo.PE ', case when i % 3 = 0 then '9' || lpad(i::text, 8, '0') end
       from generate_series(1, ${BIG}) as i`,
    [company, JSON.stringify([big])],
  );
  for (let i = 1; i <= BIG; i++) {
    const email = `cliente.${i}@correo.pe`;
    knownHashes.set(sha256(email), email);
    if (i % 3 === 0) knownHashes.set(sha256(`519${String(i).padStart(8, '0')}`), `519${String(i).padStart(8, '0')}`);
  }
  // a few wholesalers: two reachable, two with nothing to find them by
  await t.sql(
    `insert into clean_leads (company_id, name, status, mostrador_labels, details, email, telefono) values
       ($1, 'Mayorista Uno', 'sin-asignar', $2::jsonb, '[]', 'compras@bodegauno.pe', null),
       ($1, 'Mayorista Dos', 'sin-asignar', $2::jsonb, '[]', null, '51912345678'),
       ($1, 'Mayorista Tres', 'sin-asignar', $2::jsonb, '[]', null, null),
       ($1, 'Mayorista Cuatro', 'sin-asignar', $2::jsonb, '[]', null, null)`,
    [company, JSON.stringify([small])],
  );
  for (const v of ['compras@bodegauno.pe', '51912345678']) knownHashes.set(sha256(v), v);
  meta.known = knownHashes;
  t.app.realtime.subscribe(company, (event: RealtimeEvent) => {
    if (event.type === 'audience.progress') events.push(event.send);
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  meta.fail = [];
  meta.invalidEvery = undefined;
  meta.beforeUsers = undefined;
  events.length = 0;
});

describe('normalising and hashing', () => {
  it('hashes any casing and spacing of an e-mail the same, as SHA-256 hex of the trimmed lower-case address', () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/);
    fc.assert(
      fc.property(part, part, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), fc.stringMatching(/^[ \t]{0,3}$/), fc.stringMatching(/^[ \t]{0,3}$/), (user, domain, upper, before, after) => {
        const email = `${user}@${domain}.pe`;
        const messy = before + [...email].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('') + after;
        const row = audienceRow({ email: messy }, 'PE');
        expect(row).toEqual([sha256(email), '']);
        expect(row?.[0]).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it('writes a phone as digits with its country code (a local number takes the company country)', () => {
    for (const raw of ['987 654 321', '+51 987-654-321', '0051987654321', '(51) 987654321']) expect(normaliseAudiencePhone(raw, 'PE')).toBe('51987654321');
    expect(normaliseAudiencePhone('9 8765 4321', 'CL')).toBe('56987654321');
    expect(normaliseAudiencePhone('12', 'PE')).toBeNull();
    expect(normaliseAudienceEmail(' no es correo ')).toBeNull();
    expect(audienceRow({ email: 'Ana@Mail.com', phone: '987654321' }, 'PE')).toEqual([sha256Hex('ana@mail.com'), sha256Hex('51987654321')]);
    expect(audienceRow({ email: '', phone: 'abc' }, 'PE')).toBeNull();
  });
});

describe('uploading an audience', () => {
  it('sends 25,000 people in three calls of one session (10,000, 10,000, 5,000), marks them members and publishes the progress', async () => {
    audience = await newAudience('Clientes 2025', META_ID);
    const before = meta.batches.length;
    const sent = await ok('POST', '/clean-leads/send-to-audience', { audienceId: audience, mostradorLabels: [big] });
    expect(sent).toMatchObject({ count: BIG });
    const row = await finished(sent.sendId);
    expect(row).toMatchObject({ status: 'finished', total: BIG, sent: BIG, received: BIG, invalid: 0, skipped: 0, batches_done: 3, batches_total: 3, reason: null });

    const batches = meta.batches.slice(before);
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
    expect(batches.map((b) => b.batchSeq)).toEqual([1, 2, 3]);
    expect(batches.map((b) => b.last)).toEqual([false, false, true]);
    expect(new Set(batches.map((b) => b.sessionId)).size).toBe(1);
    expect(batches[0].estimatedTotal).toBe(BIG);
    expect(batches.every((b) => b.audienceId === META_ID)).toBe(true);
    // every value is the hash of a normalised e-mail or phone of these people
    expect(meta.unknown).toEqual([]);
    const allRows = batches.flatMap((b) => b.rows);
    expect(allRows.every((r) => knownHashes.get(r[0])?.endsWith('@correo.pe'))).toBe(true);
    expect(allRows.filter((r) => r[1]).length).toBe(Math.floor(BIG / 3));
    expect(allRows.some((r) => r[0] === sha256('cliente.1@correo.pe'))).toBe(true);
    expect(new Set(batches.flatMap((b) => b.rows.map((r) => r.join('|')))).size).toBe(BIG);
    expect(await members(audience)).toBe(BIG);

    // the screen's bar: each accepted batch, then the end
    const mine = await until(async () => events.filter((e) => e._id === sent.sendId), (list) => list.at(-1)?.status === 'finished', 10_000);
    expect(mine.map((e) => e.sent).filter((n, i, all) => all.indexOf(n) === i)).toEqual([0, 10_000, 20_000, 25_000]);
    expect(mine.at(-1)).toMatchObject({ status: 'finished', sent: BIG, batchesDone: 3, batchesTotal: 3 });

    const overview = (await ok('GET', '/facebook-audiences/overview')) as AudienceOverview;
    expect(overview.account).toMatchObject({ configured: true, adAccountId: ACCOUNT, sandbox: false });
    expect(overview.payload.find((a) => a._id === audience)).toMatchObject({ facebookAudienceId: META_ID, members: BIG, lastSend: { _id: sent.sendId, status: 'finished', sent: BIG } });
    // as autovacuum would after a bulk write: the planner then probes members by index
    await t.sql('analyze audience_members');
    await t.sql('analyze clean_leads');
    const missing = await call(admin, 'POST', '/clean-leads/send-to-audience', company, { audienceId: audience, mostradorLabels: [big], showMissingLeads: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.msg).toBe('No hay registros con esas etiquetas pendientes de enviar a esta audiencia');
  }, 120_000);

  it('creates the audience at Facebook first when it has no id there, counts the unreachable as skipped and Meta’s invalid entries', async () => {
    const mayoristas = await newAudience('Mayoristas');
    meta.invalidEvery = 2;
    const sent = await ok('POST', '/clean-leads/send-to-audience', { audienceId: mayoristas, mostradorLabels: [small] });
    expect(sent.count).toBe(4);
    const row = await finished(sent.sendId);
    const created = [...meta.audiences.entries()].find(([, a]) => a.name === 'Mayoristas');
    expect(created).toBeDefined();
    expect(row).toMatchObject({ status: 'finished', facebook_audience_id: created?.[0], total: 2, sent: 2, received: 2, invalid: 1, skipped: 2 });
    const [kept] = await t.sql<{ facebook_audience_id: string }>('select facebook_audience_id from facebook_audiences where id = $1', [mayoristas]);
    expect(kept.facebook_audience_id).toBe(created?.[0]);
    // only the people Meta took are members: «solo los que faltan» still finds the other two
    expect(await members(mayoristas)).toBe(2);
    const page = await ok('GET', `/clean-leads/get-by-mostradorlabels?mostradorLabels=${small}&audienceId=${mayoristas}&showMissingLeads=true`);
    expect(page.payload.map((p: Rec) => p.name).sort()).toEqual(['Mayorista Cuatro', 'Mayorista Tres']);
    const again = await call(admin, 'POST', '/clean-leads/send-to-audience', company, { audienceId: mayoristas, mostradorLabels: [small], showMissingLeads: true });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.msg).toBe(audienceMessages.noIdentifiers);

    // «Crear en Facebook» for one without an id; a second time is refused
    const nueva = await newAudience('Recompra verano');
    const made = await ok('POST', `/facebook-audiences/${nueva}/create-at-facebook`);
    expect(made).toMatchObject({ _id: nueva, msg: audienceMessages.created, members: 0 });
    expect(meta.audiences.get(made.facebookAudienceId)?.name).toBe('Recompra verano');
    const twice = await call(admin, 'POST', `/facebook-audiences/${nueva}/create-at-facebook`, company);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors.msg).toBe(audienceMessages.alreadyCreated);
  }, 60_000);

  it('resumes after a crash midway without sending an accepted batch again (the unanswered one goes in a new session)', async () => {
    const resumed = await newAudience('Clientes 2025 (copia)', '23851999999999002');
    const sendId = await recordedSend(resumed, big, '23851999999999002');
    const real = createAudienceClient(fake.url, { retryDelaysMs: [1, 1, 1] });
    let calls = 0;
    // the process dies right after Meta took the third batch, before it is recorded
    const dying: AudienceClient = {
      create: real.create,
      async addUsers(token, id, batch) {
        calls++;
        const r = await real.addUsers(token, id, batch);
        if (calls === 3) throw new Error('el proceso terminó');
        return r;
      },
    };
    const before = meta.batches.length;
    await expect(processAudienceSend({ ...deps(dying), batchSize: 6_000 }, sendId)).rejects.toThrow('el proceso terminó');
    expect(await sendOf(sendId)).toMatchObject({ status: 'uploading', batches_done: 2, sent: 12_000, in_flight: true });
    expect(await members(resumed)).toBe(12_000);
    // a new worker while the dead one's lease holds: it waits (the queue tries again later)
    await expect(processAudienceSend(deps(real), sendId)).rejects.toThrow('otro proceso');
    await t.sql('update audience_sends set lease_until = null where id = $1', [sendId]);
    await processAudienceSend({ ...deps(real), batchSize: 6_000 }, sendId);

    const row = await sendOf(sendId);
    expect(row).toMatchObject({ status: 'finished', sent: BIG, batches_done: 5, in_flight: false });
    const batches = meta.batches.slice(before);
    const rowsOf = (list: typeof batches) => list.flatMap((b) => b.rows.map((r) => r.join('|')));
    // batches 1 and 2 (accepted and recorded) were never sent again
    const firstTwo = new Set(rowsOf(batches.slice(0, 2)));
    expect(rowsOf(batches.slice(2)).filter((r) => firstTwo.has(r))).toEqual([]);
    // the third went twice, in two sessions; no session got a batch_seq twice
    expect(batches.map((b) => [b.batchSeq, b.rows.length, b.last])).toEqual([
      [1, 6000, false], [2, 6000, false], [3, 6000, false], [1, 6000, false], [2, 6000, false], [3, 1000, true],
    ]);
    expect(new Set(batches.map((b) => `${b.sessionId}/${b.batchSeq}`)).size).toBe(batches.length);
    expect(new Set(batches.map((b) => b.sessionId)).size).toBe(2);
    expect(new Set(rowsOf(batches)).size).toBe(BIG);
    expect(await members(resumed)).toBe(BIG);
  }, 120_000);

  it('waits out Meta’s throttling and tries again; when it lasts, the send fails in Spanish and «Reintentar» goes on', async () => {
    const throttled = await newAudience('Mayoristas (lento)', '23851999999999003');
    const quick = createAudienceClient(fake.url, { retryDelaysMs: [1, 1, 1] });
    meta.fail = [
      { status: 400, code: 80003, message: 'There have been too many calls to this ad-account. Wait a bit and try again.' },
      { status: 429, code: 17, message: 'User request limit reached' },
    ];
    const first = await recordedSend(throttled, small, '23851999999999003');
    const refusedBefore = meta.refused.length;
    await processAudienceSend(deps(quick), first);
    expect(await sendOf(first)).toMatchObject({ status: 'finished', sent: 2 });
    expect(meta.refused.slice(refusedBefore).map((r) => r.code)).toEqual([80003, 17]);

    meta.fail = Array.from({ length: 4 }, () => ({ status: 400, code: 613, message: 'Calls to this api have exceeded the rate limit.' }));
    const second = await recordedSend(throttled, small, '23851999999999003');
    await processAudienceSend(deps(quick), second);
    expect(await sendOf(second)).toMatchObject({ status: 'failed', reason: audienceMessages.throttled, sent: 0, in_flight: false });
    const retried = await ok('POST', `/audience-sends/${second}/retry`);
    expect(retried).toMatchObject({ status: 'queued', msg: audienceMessages.retried });
    expect(await finished(second)).toMatchObject({ status: 'finished', sent: 2, reason: null });
    expect((await call(admin, 'POST', `/audience-sends/${second}/retry`, company)).statusCode).toBe(400);
  }, 60_000);

  it('an expired token fails the send with a Spanish reason and uploads nothing', async () => {
    const expired = await newAudience('Caducada', '23851999999999004');
    meta.fail = [{ status: 400, code: 190, message: 'Error validating access token: Session has expired on Tuesday', subcode: 463 }];
    const sent = await ok('POST', '/clean-leads/send-to-audience', { audienceId: expired, mostradorLabels: [small] });
    const row = await finished(sent.sendId);
    expect(row).toMatchObject({ status: 'failed', reason: audienceMessages.tokenInvalid, sent: 0 });
    expect(await members(expired)).toBe(0);
    const history = await ok('GET', `/facebook-audiences/${expired}/sends`);
    expect(history.payload).toHaveLength(1);
    expect(history.payload[0]).toMatchObject({ _id: sent.sendId, status: 'failed', reason: audienceMessages.tokenInvalid });
  }, 60_000);
});

describe('each company its own', () => {
  it('refuses another company’s audience (400) and sends nothing; its history and retries are not found', async () => {
    const acmeLabel = ((await ok('POST', '/mostrador-labels', { name: 'Acme VIP', color: '#000000' }, acme, acmeCo)) as Rec)._id;
    const sendsBefore = (await t.sql<{ n: number }>('select count(*)::int as n from audience_sends'))[0].n;
    const callsBefore = meta.userCalls;
    const theirs = await call(acme, 'POST', '/leads/send-to-audience', acmeCo, { audienceId: audience, mostradorLabels: [acmeLabel] });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().errors.details.map((d: { path: string }) => d.path)).toContain('audienceId');
    const mixed = await call(acme, 'POST', '/clean-leads/send-to-audience', acmeCo, { audienceId: audience, mostradorLabels: [big] });
    expect(mixed.statusCode).toBe(400);
    expect((await call(acme, 'GET', `/facebook-audiences/${audience}/sends`, acmeCo)).statusCode).toBe(404);
    expect((await call(acme, 'POST', `/facebook-audiences/${audience}/create-at-facebook`, acmeCo)).statusCode).toBe(404);
    const [someSend] = await t.sql<{ id: string }>('select id from audience_sends where company_id = $1 limit 1', [company]);
    expect((await call(acme, 'POST', `/audience-sends/${someSend.id}/retry`, acmeCo)).statusCode).toBe(404);
    const overview = (await ok('GET', '/facebook-audiences/overview', undefined, acme, acmeCo)) as AudienceOverview;
    expect(overview.payload.some((a) => a._id === audience)).toBe(false);

    // Acme's own audience: it has no ad account connected, said in Spanish before anything is recorded
    const own = ((await ok('POST', '/facebook-audiences', { name: 'Audiencia Acme' }, acme, acmeCo)) as Rec)._id;
    const noAccount = await call(acme, 'POST', '/leads/send-to-audience', acmeCo, { audienceId: own, mostradorLabels: [acmeLabel] });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().errors.msg).toBe(audienceMessages.noAccount);
    expect((await t.sql<{ n: number }>('select count(*)::int as n from audience_sends'))[0].n).toBe(sendsBefore);
    expect(meta.userCalls).toBe(callsBefore);
  });
});
