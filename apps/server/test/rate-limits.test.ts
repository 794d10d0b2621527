import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { hashSecret } from '../src/lib/tokens.js';
import { as, demo, JWT_SECRET, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Limits that hold under concurrency and behind a proxy (issue 26, decision 0004), written as the
 * attacks: concurrent guesses, an attacker locking the owner out, concurrent orders past the
 * limit, a rotating X-Forwarded-For, a flood on an anonymous route; and the reset links.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Who = { email: string; password: string; corporation: string };
const signIn = (who: Who, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: who, remoteAddress, headers });
const statuses = (answers: Array<{ statusCode: number }>) => answers.map((a) => a.statusCode);
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

describe('sign-in under attack', () => {
  it('50 concurrent wrong guesses: 5 are checked, the rest wait (429 + Retry-After), and the owner still signs in from elsewhere', async () => {
    const attacker = '198.51.100.20';
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => signIn({ ...demo.agent, password: `adivina-${i}` }, attacker)));
    const got = statuses(answers);
    // each 401 is a password really checked: never more than the pair's free failures
    expect(count(got, 401)).toBe(5);
    expect(count(got, 429)).toBe(45);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(30);
    expect(refused?.json().errors.msg).toMatch(/^Demasiados intentos fallidos\. Espera \d+ segundos e inténtalo de nuevo$/);

    // the owner, at their own address, is not locked out by the attack
    expect((await signIn(demo.agent, '198.51.100.21')).statusCode).toBe(200);
    // the attacker stays slowed: of another burst, at most the one attempt after the wait is checked
    const more = statuses(await Promise.all(Array.from({ length: 20 }, (_, i) => signIn({ ...demo.agent, password: `otra-${i}` }, attacker))));
    expect(count(more, 401)).toBeLessThanOrEqual(1);
    expect(count(more, 429)).toBeGreaterThanOrEqual(19);
  });

  it('each failure past the free ones doubles the wait, and the wait once over lets one more attempt in', async () => {
    const address = '198.51.100.22';
    const who = { ...demo.admin, password: 'no-es-esta' };
    for (let i = 0; i < 5; i++) expect((await signIn(who, address)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const held = await signIn(who, address);
      expect(held.statusCode).toBe(429);
      waits.push(Number(held.headers['retry-after']));
      // the wait passes: one attempt is checked again, and the next wait is twice as long
      await t.sql(`update rate_limits set blocked_until = now() where blocked_until > now()`);
      expect((await signIn(who, address)).statusCode).toBe(401);
    }
    expect(waits).toEqual([30, 60, 120]);
    // a success where the failures were forgets them
    await t.sql(`update rate_limits set blocked_until = now() where blocked_until > now()`);
    expect((await signIn(demo.admin, address)).statusCode).toBe(200);
    expect((await signIn(who, address)).statusCode).toBe(401);
  });

  it('a guess from many addresses: past 50 failures the addresses that failed wait, a clean address with the right password signs in', async () => {
    const who = { ...demo.acme, password: 'clave-equivocada' };
    const first = await Promise.all(Array.from({ length: 55 }, (_, i) => signIn(who, `203.0.113.${100 + i}`)));
    expect(count(statuses(first), 401)).toBe(55);
    // an address that already failed on this account is held by the account's delay
    const again = await signIn(who, '203.0.113.100');
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // the owner, from an address that has not failed, gets in at once
    expect((await signIn(demo.acme, '192.0.2.77')).statusCode).toBe(200);
  });
});

describe('reset links', () => {
  it('a reset ends every other link of the user still outstanding', async () => {
    const [{ id }] = await t.sql<{ id: string }>(`select u.id from users u join corporations c on c.id = u.corporation_id where c.slug = 'demo' and u.email = 'admin@demo.com'`);
    const links = [randomUUID(), randomUUID()];
    for (const secret of links) {
      await t.sql(`insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 hour')`, [id, hashSecret(secret)]);
    }
    const reset = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/api/reset', payload: { token, password, passwordConfirmation: password } });
    expect((await reset(links[0], 'nueva-clave-1')).statusCode).toBe(200);
    const second = await reset(links[1], 'del-atacante-1');
    expect(second.statusCode).toBe(400);
    expect(second.json().errors.msg).toBe('El enlace para restablecer la contraseña no es válido o ha expirado');
    expect((await signIn({ ...demo.admin, password: 'nueva-clave-1' }, '192.0.2.10')).statusCode).toBe(200);
  });

  it('/forgot answers without waiting for the mail: a held mailer does not hold the answer', async () => {
    const mailer = t.app.mailer;
    const dispatch = mailer.dispatch;
    let answered = false;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let called = 0;
    mailer.dispatch = async (id: string) => {
      called++;
      await held;
      return dispatch.call(mailer, id);
    };
    try {
      const answer = t.app.inject({ method: 'POST', url: '/api/forgot', payload: { email: 'agente@demo.com', corporation: 'demo' } }).then((res) => {
        answered = true;
        return res;
      });
      // the mail is prepared (the mailer is reached and held there) while the answer is already out
      await until(async () => called, (n) => n === 1, 20_000, 'the mailer reached');
      await until(async () => answered, (v) => v, 5_000, 'the answer while the mail is held');
      expect((await answer).statusCode).toBe(200);
    } finally {
      release();
      mailer.dispatch = dispatch;
    }
    // released, the mail goes out
    await until(async () => (await t.sql(`select 1 from mail_outbox where "to" = 'agente@demo.com'`)).length, (n) => n === 1, 20_000, 'the mail');
  });
});

describe('TRUST_PROXY', () => {
  it('refuses "true" at load with a Spanish message naming the forms it takes', () => {
    const env = { NODE_ENV: 'test', JWT_SECRET, DATA_DIR: '/tmp/mostrador-trust-proxy' };
    expect(() => loadConfig({ ...env, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: 'true' ya no se acepta.*TRUST_PROXY=1.*10\.0\.1\.0\/24/);
    expect(() => loadConfig({ ...env, TRUST_PROXY: '10.0.0.5,cualquiera' })).toThrow(/'cualquiera' no es una dirección ni un rango/);
    expect(loadConfig({ ...env, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...env, TRUST_PROXY: '10.0.0.5, 10.0.1.0/24' }).trustProxy).toEqual(['10.0.0.5', '10.0.1.0/24']);
    expect(loadConfig({ ...env }).trustProxy).toBe(false);
  });

  for (const form of ['1', '127.0.0.1/32']) {
    it(`TRUST_PROXY=${form}: a rotating X-Forwarded-For behind the proxy does not escape the limit, and the session keeps the real address`, async () => {
      const proxied = await startTestApp({ TRUST_PROXY: form });
      try {
        const real = '203.0.113.9';
        // the client writes what it likes on the left; the proxy (127.0.0.1) appends the address it saw
        const via = (who: Who, i: number) =>
          proxied.app.inject({ method: 'POST', url: '/api/login', payload: who, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `10.9.${i}.1, 198.18.0.${i}, ${real}` } });
        const answers = [];
        for (let i = 0; i < 8; i++) answers.push(await via({ ...demo.agent, password: `rota-${i}` }, i));
        expect(statuses(answers)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);

        const owner = await proxied.app.inject({ method: 'POST', url: '/api/login', payload: demo.admin, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `6.6.6.6, ${real}` } });
        expect(owner.statusCode).toBe(200);
        const [session] = await proxied.sql<{ ip: string }>(`select ip from sessions order by created_at desc limit 1`);
        expect(session.ip).toBe(real);

        // a client reaching the server directly (not through the proxy) cannot name its address
        const direct = await proxied.app.inject({ method: 'POST', url: '/api/login', payload: demo.acme, remoteAddress: '198.51.100.99', headers: { 'x-forwarded-for': '6.6.6.6' } });
        expect(direct.statusCode).toBe(200);
        const [directSession] = await proxied.sql<{ ip: string }>(`select ip from sessions order by created_at desc limit 1`);
        expect(directSession.ip).toBe('198.51.100.99');
      } finally {
        await proxied.close();
      }
    });
  }
});

describe('anonymous routes', () => {
  let low: TestApp;
  let admin: Signed;
  beforeAll(async () => {
    low = await startTestApp({ RATE_LIMIT_PUBLIC_READS: '5', RATE_LIMIT_PUBLIC_WRITES: '3', RATE_LIMIT_WEBHOOKS: '4' });
    admin = await login(low, demo.admin);
  });
  afterAll(async () => {
    await low?.close();
  });

  it('past its kind’s limit an address gets 429 + Retry-After in Spanish; another address and signed-in calls are not counted', async () => {
    const from = (remoteAddress: string, method: 'GET' | 'POST', url: string, payload?: object) => low.app.inject({ method, url, remoteAddress, payload });
    const pageOf = (ip: string) => from(ip, 'GET', `/api/orders/public/${'A'.repeat(32)}`);
    // reads (the public order page, the catalogue, Drive's public files, the docs) share one count
    expect(statuses(await Promise.all([pageOf('192.0.2.50'), pageOf('192.0.2.50'), from('192.0.2.50', 'GET', `/api/catalogo-digital/${randomUUID()}`)]))).toEqual([404, 404, 404]);
    expect((await from('192.0.2.50', 'GET', `/api/drive/files/${randomUUID()}/foto.png`)).statusCode).toBe(404);
    expect((await from('192.0.2.50', 'GET', '/api/docs/json')).statusCode).toBe(200);
    const limited = await pageOf('192.0.2.50');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // the wait it names is the Retry-After it sends («1 minuto» for a window just opened, else seconds)
    const wait = Number(limited.headers['retry-after']);
    expect(limited.json().errors.msg).toBe(`Demasiadas solicitudes desde esta conexión. Espera ${wait >= 60 ? '1 minuto' : wait === 1 ? '1 segundo' : `${wait} segundos`} e inténtalo de nuevo`);
    expect((await pageOf('192.0.2.51')).statusCode).toBe(404);
    // a signed-in call from that address is not an anonymous one
    expect((await low.app.inject({ method: 'GET', url: '/api/orders', headers: as(admin, admin.company('Demo Chile')), remoteAddress: '192.0.2.50' })).statusCode).toBe(200);

    // writes (reset, registration) have their own count, webhooks theirs
    const resets = await Promise.all(
      Array.from({ length: 5 }, () => from('192.0.2.50', 'POST', '/api/reset', { token: 'x'.repeat(40), password: 'clave-12345', passwordConfirmation: 'clave-12345' })),
    );
    expect(statuses(resets).sort()).toEqual([400, 400, 400, 429, 429]);
    const hooks = await Promise.all(Array.from({ length: 6 }, () => from('192.0.2.50', 'GET', '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1')));
    expect(count(statuses(hooks), 429)).toBe(2);
  });

  it('an IPv6 client is counted by its /64: changing the last 64 bits does not escape', async () => {
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => low.app.inject({ method: 'GET', url: `/api/orders/public/${'B'.repeat(32)}`, remoteAddress: `2001:db8:1:2::${i + 1}` })),
    );
    expect(count(statuses(answers), 429)).toBe(2);
  });
});
