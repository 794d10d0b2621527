import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtp } from './fakes/smtp.js';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Mostrador <no-reply@mostrador.test>', PUBLIC_URL: 'https://app.mostrador.test' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('mail over SMTP', () => {
  it('sends the reset link through SMTP_URL and marks the outbox row sent', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot', payload: { email: 'admin@demo.com', corporation: 'demo' } });
    expect(res.statusCode).toBe(200);
    const until = Date.now() + 15_000;
    while (smtp.received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('no-reply@mostrador.test');
    expect(mail.to).toEqual(['admin@demo.com']);
    // the body travels quoted-printable (accents, long lines): decode it as a mail client would
    const body = mail.data.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
    expect(body).toMatch(/https:\/\/app\.mostrador\.test\/restablecer-contrasena\?token=[\w-]{20,}/);
    expect(body).toMatch(/^Subject: /m);
    let rows: Array<{ status: string; sent_at: Date | null }> = [];
    while (Date.now() < until) {
      rows = await t.sql(`select status, sent_at from mail_outbox where "to" = 'admin@demo.com'`);
      if (rows[0]?.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows[0]).toMatchObject({ status: 'sent' });
    expect(rows[0].sent_at).not.toBeNull();
  });
});
