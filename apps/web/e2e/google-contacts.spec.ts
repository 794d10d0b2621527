import type { GooglePhoneOut } from '@mostrador/contract';
import type { Page } from '@playwright/test';
import { accounts, expect, signIn, test } from './helpers';

/**
 * Google contacts of the phones (issue 15, decision 0052). The spec's
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret} carries an OAuth client secret in the
 * address: the page keeps it out of the address bar and out of the history (Back never shows it),
 * and goes on to Google's consent (intercepted here: no test reaches the internet). The demo's
 * sandbox phone syncs its leads with «Sincronizar con Google».
 */
const CLIENT_ID = '731942065871-e2e0prueba.apps.googleusercontent.com';
const SECRET = 'GOCSPX-e2eSecretoQueNoDebeQuedar42';

async function phones(page: Page): Promise<GooglePhoneOut[]> {
  const { token, companyId } = await page.evaluate(() => ({ token: localStorage.getItem('token'), companyId: localStorage.getItem('companyId') }));
  const res = await page.request.get('/api/google-people/phones', { headers: { authorization: `Bearer ${token}`, 'x-company-id': companyId ?? '' } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { payload: GooglePhoneOut[] }).payload;
}

test('the spec route leaves no secret in the address bar nor in the history, and goes to Google’s consent', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const phone = (await phones(page)).find((p) => p.state === 'sin-conectar');
  expect(phone).toBeDefined();
  const id = phone?.telefonoId as string;

  // Google's consent page, answered here
  let consent: URL | undefined;
  await page.route('https://accounts.google.com/**', async (route) => {
    consent = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Google</title><h1>Elige una cuenta</h1>' });
  });
  const seen: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });

  const response = await page.goto(`/telefonos/googlepeople/${id}/${CLIENT_ID}/${SECRET}`);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { name: 'Elige una cuenta' })).toBeVisible();

  // the consent asked: this client, the contacts scope, offline with consent, a state; never the secret
  expect(consent).toBeDefined();
  const q = Object.fromEntries(consent?.searchParams ?? []);
  expect(q).toMatchObject({ client_id: CLIENT_ID, access_type: 'offline', prompt: 'consent', response_type: 'code', code_challenge_method: 'S256' });
  expect(q.scope.split(' ')).toContain('https://www.googleapis.com/auth/contacts');
  expect(q.state).toBeTruthy();
  expect(consent?.toString()).not.toContain(SECRET);

  // Back: the phone's clean address, then the page before; the secret in neither
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/telefonos/googlepeople/${id}$`));
  expect(page.url()).not.toContain(SECRET);
  expect(await page.evaluate(() => location.href)).not.toContain(SECRET);
  await expect(page.getByRole('button', { name: 'Conectar con Google' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/perfil$/);
  // from the moment the page cleaned it, no address the tab showed had the secret again; nor has the history's state
  const cleaned = seen.findIndex((u) => !u.includes(SECRET));
  expect(cleaned).toBeGreaterThan(0);
  expect(seen.slice(cleaned).filter((u) => u.includes(SECRET))).toEqual([]);
  expect(JSON.stringify(await page.evaluate(() => history.state))).not.toContain(SECRET);

  // the phone now waits for Google's «Permitir»
  expect((await phones(page)).find((p) => p.telefonoId === id)).toMatchObject({ state: 'falta-autorizar' });
});

test('the demo’s sandbox Google: connecting through the spec route comes back connected, and a phone syncs its leads', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const all = await phones(page);
  const target = all.find((p) => p.state === 'sin-conectar' || p.state === 'falta-autorizar');
  const sandbox = all.find((p) => p.sandbox && p.state === 'conectado');
  expect(target && sandbox).toBeTruthy();

  const consentAsked = page.waitForRequest((r) => r.url().includes('/api/google-people/sandbox/consent?'));
  await page.goto(`/telefonos/googlepeople/${target?.telefonoId}/sandbox-e2e.apps.googleusercontent.com/sandbox-secreto-e2e`);
  expect(new URL((await consentAsked).url()).searchParams.get('client_id')).toBe('sandbox-e2e.apps.googleusercontent.com');
  await expect(page.getByTestId('google-outcome')).toHaveText('Teléfono conectado con Google: ya puedes sincronizar sus contactos');
  await expect(page).toHaveURL(/\/telefonos$/);
  await expect(page.getByRole('heading', { name: 'Teléfonos', level: 1 })).toBeVisible();
  await page.goBack();
  expect(page.url()).not.toContain('sandbox-secreto-e2e');

  await page.goto(`/telefonos/contactos/${sandbox?.telefonoId}`);
  const panel = page.getByRole('region', { name: 'Contactos de Google' });
  await expect(panel.getByText('En Google').first()).toBeVisible();
  const summary = panel.getByText(/ya están? en Google/);
  await expect(summary).toContainText('pendiente');
  const before = (await summary.textContent()) ?? '';
  await panel.getByRole('button', { name: 'Sincronizar con Google' }).click();
  // the pending leads with a phone are now in Google: the counts move and the sync says how many it created
  await expect(summary).not.toHaveText(before);
  await expect(panel.getByText(/contactos? creados? en Google/)).toBeVisible();
});
