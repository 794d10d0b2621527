import { accounts, expect, signIn, test } from './helpers';

// the entry goes through the webhook queue: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * Gravity Forms (issue 15, decision 0050) on the demo's sandbox site: the admin makes the contact
 * form a new webhook secret (shown once), the WordPress site posts an entry to the webhook URL
 * with it, and the open screen shows the entry as a new lead without a reload — in «Entradas
 * recientes» and in the form's counts — whose «Ver lead» finds the lead in Leads. The old secret
 * no longer opens the webhook.
 */
test('an entry posted to the form’s webhook shows on the open screen as a new lead', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/gravity-forms');
  await expect(page.getByRole('heading', { name: 'Gravity Forms', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: /Contacto web/ });
  const state = row.getByTestId('gravity-form-state');
  const counts = state.getByText(/leads? nuevos? · /);
  await expect(counts).toBeVisible();
  const createdBefore = Number((await counts.textContent())?.match(/^(\d+)/)?.[1]);
  expect(createdBefore).toBeGreaterThan(0);

  // a new secret for the site, shown once, and the URL to paste in its Webhooks add-on
  await row.getByRole('button', { name: 'Webhook: Contacto web' }).click();
  const dialog = page.getByRole('dialog', { name: 'Webhook · Contacto web' });
  await expect(dialog.getByText(/Secreto guardado \(…0001\)/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Generar un secreto nuevo' }).click();
  const authorization = await dialog.getByTestId('gravity-webhook-secret').inputValue();
  expect(authorization).toMatch(/^Bearer gfw_\S+$/);
  const url = await dialog.getByTestId('gravity-webhook-url').inputValue();
  expect(url).toMatch(/\/api\/webhooks\/gravity-forms\/[0-9a-f-]{36}$/);
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(dialog).toBeHidden();

  // the site posts a new entry of the form, as the add-on does (JSON, «Todos los campos»)
  const stamp = Date.now();
  const entryId = 100_000_000 + (stamp % 800_000_000);
  const phone = `9${String(stamp).slice(-8)}`;
  const first = `Daniela${String.fromCharCode(65 + (stamp % 26))}`;
  const entry = {
    id: String(entryId),
    form_id: '1',
    date_created: new Date(stamp).toISOString().slice(0, 19).replace('T', ' '),
    '1.3': first,
    '1.6': 'Salazar',
    '2': '',
    '3': phone,
    '4': 'Quisiera 12 cajas de panetón para mi empresa',
    '5': '1',
  };
  const stale = await page.request.post(url, { headers: { authorization: 'Bearer gfw_demo_sandbox_secret_0001' }, data: entry });
  expect(stale.status()).toBe(401);
  const sent = await page.request.post(url, { headers: { authorization }, data: entry });
  expect(sent.status(), await sent.text()).toBe(200);

  // on the open screen, without reloading: the entry with its new lead, and the form's counts
  const name = `${first} Salazar`;
  const line = page.getByTestId('gravity-entry').filter({ hasText: name });
  await expect(line).toBeVisible();
  await expect(line.getByText(`#${entryId} · webhook`)).toBeVisible();
  await expect(line.getByText('Lead creado')).toBeVisible();
  await expect(line.getByText('Quisiera 12 cajas de panetón para mi empresa')).toBeVisible();
  await expect(counts).toHaveText(new RegExp(`^${createdBefore + 1} leads nuevos · `));

  // «Ver lead»: the lead in Leads, a web lead with the phone the entry gave
  await line.getByRole('link', { name: `Ver lead: ${name}` }).click();
  await expect(page).toHaveURL(/\/lead\/todos\?q=51\d{9}/);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
});
