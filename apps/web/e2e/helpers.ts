import { createHmac } from 'node:crypto';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';

export { expect };

/**
 * Every spec's `test`: its page fails the spec when the browser refused something by the
 * Content-Security-Policy (decision 0063) — a script, frame, picture or call the policy does not
 * name. Chromium reports each refusal as a console error; the page's `securitypolicyviolation`
 * event is logged too, so one raised inside the app's own code is not missed.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|securitypolicyviolation/i.test(message.text())) refused.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`securitypolicyviolation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    await use(page);
    expect(refused, 'la página pidió algo que la Content-Security-Policy no permite').toEqual([]);
  },
});

export const DEMO_PASSWORD = 'demo1234';

export const accounts = {
  demoAdmin: { corporation: 'demo', email: 'admin@demo.com', password: DEMO_PASSWORD },
  demoAgent: { corporation: 'demo', email: 'agente@demo.com', password: DEMO_PASSWORD },
  acmeAdmin: { corporation: 'acme', email: 'admin@acme.com', password: DEMO_PASSWORD },
} as const;

export interface Credentials {
  corporation: string;
  email: string;
  password: string;
}

/** A call with the page's session (bearer token and company), as the SPA makes it; a failure throws with its status and body. */
export async function apiAs<T>(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return page.evaluate(
    async ({ path, init }) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${localStorage.getItem('token')}`,
        'x-company-id': localStorage.getItem('companyId') ?? '',
      };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`/api${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { path, init },
  ) as Promise<T>;
}

/** Fills the login form the way a person does and submits it. */
export async function submitLogin(page: Page, { corporation, email, password }: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Corporación').fill(corporation);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

/**
 * Signs in and opens the profile screen. The login form and the landing are what auth.spec and
 * agent-workspace.spec test; every other flow only needs a session, so this asks the API for
 * one (POST /api/login, as the form does) and stores it where the app keeps it (SPEC §4's four
 * localStorage keys), instead of loading the form and the inbox before each test.
 */
export async function signIn(page: Page, credentials: Credentials): Promise<void> {
  const response = await page.request.post('/api/login', { data: credentials });
  expect(response.status(), await response.text()).toBe(200);
  const session = (await response.json()) as {
    token: string;
    expiresIn: number;
    user: { companyId?: string | null; corporation?: { companies?: Array<{ company: { _id: string }; default?: boolean }> } };
  };
  const companies = session.user.corporation?.companies ?? [];
  // a login selects the default company (SPEC §4), as the app's own setSession does
  const companyId = (companies.find((m) => m.default) ?? companies[0])?.company._id ?? session.user.companyId ?? null;
  // any page of the origin gives access to its localStorage; the health check is the lightest
  await page.goto('/api/health');
  await page.evaluate(
    ({ token, expiresAt, user, companyId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('tokenExpiry', String(expiresAt));
      localStorage.setItem('user', JSON.stringify(user));
      if (companyId) localStorage.setItem('companyId', companyId);
    },
    { token: session.token, expiresAt: Date.now() + session.expiresIn * 1000, user: session.user, companyId },
  );
  await page.goto('/perfil');
  await expect(page.getByRole('heading', { name: 'Perfil', level: 1 })).toBeVisible();
}

/** The demo's WhatsApp line and the app secret its webhooks are signed with (npm start's sandbox). */
export const DEMO_WHATSAPP_LINE = '100000000000001';
const DEMO_APP_SECRET = 'mostrador-demo-app-secret';
let seq = 0;

/** POSTs a WhatsApp Cloud API `messages` webhook with one text from a customer, signed like Meta does. */
export async function customerWrites(request: APIRequestContext, { from, name, text }: { from: string; name: string; text: string }): Promise<void> {
  const id = `wamid.E2E${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '51987000000', phone_number_id: DEMO_WHATSAPP_LINE },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac('sha256', DEMO_APP_SECRET).update(body).digest('hex')}`;
  const response = await request.post('/api/webhooks/whatsapp', {
    data: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ received: 1, stored: 1 });
}
