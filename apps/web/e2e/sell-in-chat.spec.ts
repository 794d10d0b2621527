import { randomInt } from 'node:crypto';
import { accounts, customerWrites, expect, signIn, test } from './helpers';

/**
 * Selling inside the chat (issue 30), end to end on the demo's sandboxes: a customer writes on
 * WhatsApp; the agent sends them two products from the catalogue, builds their order, and sends
 * its summary with the Mercado Pago link in one click; the customer pays in the sandbox checkout;
 * /ordenes, open meanwhile, shows the order «Pagada» without a reload.
 */
test('send two products, build the order, send its payment link, pay in the sandbox, see it paid live', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(180_000);
  const from = `519${randomInt(10_000_000, 99_999_999)}`;
  const name = `Lucía Campos ${from.slice(-4)}`;
  await customerWrites(request, { from, name, text: '¡Hola! ¿Tienen mochilas y tazas? Quiero comprar' });

  await signIn(page, accounts.demoAdmin);
  const orders = await page.context().newPage();
  await orders.goto('/ordenes');
  const table = orders.getByRole('table', { name: 'Órdenes' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await orders.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });

  await page.goto('/chat');
  await page.getByRole('searchbox').first().fill(name);
  await page.getByTestId('chat-item').filter({ hasText: name }).first().click();
  await expect(page.getByTestId('thread-title')).toHaveText(name);

  // ── two products from the composer ──
  await page.getByRole('button', { name: 'Productos' }).click();
  const picker = page.getByRole('dialog', { name: 'Enviar productos' });
  await picker.getByRole('textbox', { name: 'Buscar por nombre, SKU o categoría' }).fill('Mochila');
  await picker.getByRole('checkbox', { name: 'Mochila escolar 20 L' }).check();
  await picker.getByRole('textbox', { name: 'Buscar por nombre, SKU o categoría' }).fill('Taza');
  await picker.getByRole('checkbox', { name: 'Taza cerámica Mostrador' }).check();
  await expect(picker.getByTestId('products-chosen')).toContainText('2 de 30 elegidos');
  await picker.getByRole('button', { name: 'Enviar' }).click();
  await expect(picker).toBeHidden();
  const log = page.getByRole('log');
  await expect(log.getByText(/Mochila/).last()).toBeVisible();

  // ── the order, built in the chat ──
  await page.getByTestId('create-order-button').click();
  const dialog = page.getByRole('dialog', { name: 'Crear pedido' });
  await dialog.getByRole('combobox', { name: 'Agregar producto (nombre o SKU)' }).fill('Mochila');
  await page.getByRole('option', { name: /Mochila escolar 20 L/ }).first().click();
  await expect(dialog.getByTestId('order-line')).toHaveCount(1);
  await expect(dialog.getByLabel('Teléfono')).toHaveValue(from);
  await dialog.getByRole('button', { name: 'Crear pedido' }).click();
  const created = page.getByRole('status').filter({ hasText: /Pedido P-\w+ creado/ });
  await expect(created).toBeVisible();
  const code = /P-\w+/.exec((await created.textContent()) ?? '')?.[0] as string;
  // /ordenes hears of it
  await expect(table.getByRole('row').filter({ hasText: code })).toBeVisible({ timeout: 15_000 });

  // ── its summary and payment link, one click ──
  await created.getByRole('button', { name: 'Enviar con enlace de pago' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Pedido ${code} enviado al cliente` })).toBeVisible();
  const link = log.getByRole('link', { name: /pago-sandbox/ }).last();
  await expect(link).toBeVisible();
  const url = (await link.getAttribute('href')) as string;

  // ── the customer pays in the sandbox checkout, on a phone ──
  const phone = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, isMobile: true, locale: 'es-PE' });
  const checkout = await phone.newPage();
  await checkout.goto(url);
  await expect(checkout.getByRole('heading', { name: /Pagar S\/\s?\d/ })).toBeVisible();
  await checkout.getByRole('button', { name: 'Pagar' }).click();
  await expect(checkout.getByText(/aprobado|pagado|Pagada/i).first()).toBeVisible();

  // ── /ordenes shows it paid, never reloaded ──
  await expect(table.getByRole('row').filter({ hasText: code }).getByText('Pagada')).toBeVisible({ timeout: 20_000 });
  expect(await orders.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true)).toBe(true);
  await phone.close();
});
