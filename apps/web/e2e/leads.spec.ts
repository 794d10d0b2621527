import { accounts, expect, signIn, test } from './helpers';

/** The lead screens (issue 4) on the demo company, which holds 95 seeded leads. */

test('a bucket lists the demo leads of its stage; moving one makes it appear in the other bucket', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/lead/sin-asignar');
  await expect(page.getByRole('heading', { name: 'Leads sin asignar', level: 1 })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Leads sin asignar' }).locator('tbody tr');
  await expect(rows.first().getByRole('combobox', { name: /^Estado: / })).toBeVisible();
  const select = rows.first().getByRole('combobox', { name: /^Estado: / });
  const name = ((await select.getAttribute('aria-label')) ?? '').replace(/^Estado: /, '');
  expect(name).not.toBe('');

  // demo names may repeat: the row leaves, so one fewer select carries that name
  const before = await page.getByRole('combobox', { name: `Estado: ${name}` }).count();
  await select.click();
  await page.getByRole('option', { name: 'Compra fallida' }).click();
  await expect(page.getByTestId('success-snackbar')).toContainText('Registro actualizado con éxito');
  await expect(page.getByRole('combobox', { name: `Estado: ${name}` })).toHaveCount(before - 1);

  await page.goto(`/lead/compra-fallida?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole('heading', { name: 'Compras fallidas', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: `Estado: ${name}` }).first()).toHaveText('Compra fallida');
});

test('/lead/todos keeps its filters in the address', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/lead/todos?canal=whatsapp');
  await expect(page.getByRole('heading', { name: 'Todos los leads', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Canal' })).toHaveText('WhatsApp');
  // every row of the filtered list is a WhatsApp lead, not only the first
  const table = page.getByRole('table', { name: 'Todos los leads' });
  const headers = await table.getByRole('columnheader').allTextContents();
  const channelColumn = headers.findIndex((h) => h.trim().startsWith('Canal'));
  expect(channelColumn).toBeGreaterThanOrEqual(0);
  const channels = table.locator(`tbody tr td:nth-child(${channelColumn + 1})`);
  await expect(channels.first()).toHaveText('WhatsApp');
  const shown = await channels.count();
  await expect(channels).toHaveText(Array<string>(shown).fill('WhatsApp'));
  // the people view is another list, so the switch is drawn again: click, then read it anew
  await page.getByRole('switch', { name: 'Personas (leads limpios)' }).click();
  await expect(page).toHaveURL(/vista=personas/);
  await expect(page.getByRole('switch', { name: 'Personas (leads limpios)' })).toBeChecked();
  await expect(page).toHaveURL(/canal=whatsapp/);
});

test('/resumen-leads shows the counts per stage and channel', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/resumen-leads');
  await expect(page.getByRole('heading', { name: 'Resumen de leads', level: 1 })).toBeVisible();
  const total = Number((await page.getByTestId('summary-total').textContent())?.replace(/\D/g, ''));
  expect(total).toBeGreaterThan(0);
  await expect(page.getByTestId('summary-status-sin-asignar')).toContainText(/Sin asignar\d+/);
  await expect(page.getByRole('list', { name: 'Leads por canal' }).getByRole('listitem').first()).toBeVisible();
  await page.getByTestId('summary-status-compra-realizada').click();
  await expect(page).toHaveURL(/\/lead\/compra-realizada$/);
});
