import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { accounts, apiAs, expect, signIn, test } from './helpers';

/**
 * Selling end to end (issue 12, decisions 0031 and 0032): a customer on a phone orders from
 * Demo Perú's digital catalogue (a product and a product in sizes and colours), checks out with
 * their data and delivery, and lands on their own order page; meanwhile the shop's open
 * /ordenes shows the order without a reload and the customer's chat in /chat shows its summary;
 * then the staff moves the order from its detail, and the customer's page follows.
 */

/** A mark a reload would wipe. */
const markNoReload = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
const stillNoReload = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

test('a customer orders on a phone; /ordenes and /chat show it live; the staff moves it from its detail', async ({ page: staff, browser, baseURL }) => {
  test.setTimeout(180_000);
  const mobile = `9${randomInt(10_000_000, 99_999_999)}`;
  const name = `Valeria Ríos ${mobile.slice(-4)}`;

  // ── the shop: /ordenes and /chat open, one page each ──
  await signIn(staff, accounts.demoAdmin);
  const catalog = await apiAs<{ _id: string; name: string }>(staff, '/catalogs/default');
  await staff.goto('/ordenes');
  await expect(staff.getByRole('heading', { name: 'Órdenes', level: 1 })).toBeVisible();
  const orders = staff.getByRole('table', { name: 'Órdenes' });
  await expect(orders.getByRole('row').nth(1)).toBeVisible();
  await markNoReload(staff);

  const inbox = await staff.context().newPage();
  await inbox.goto('/chat');
  await expect(inbox.getByTestId('chat-item').first()).toBeVisible({ timeout: 30_000 });
  await markNoReload(inbox);

  // ── the customer, on a phone ──
  const phone = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'es-PE' });
  const shop = await phone.newPage();
  await shop.goto(`/catalogo-digital/${catalog._id}`);
  await expect(shop.getByText('Demo Perú', { exact: true })).toBeVisible();

  // a product sold as it is
  await shop.getByRole('searchbox', { name: 'Buscar productos' }).fill('Mochila');
  await shop.getByRole('button', { name: 'Mochila escolar 20 L' }).click();
  const mochila = shop.getByRole('dialog', { name: 'Mochila escolar 20 L' });
  await expect(mochila.getByText('S/ 89.00')).toBeVisible();
  await mochila.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(mochila).toBeHidden();

  // a product in sizes and colours: two of one variant (the demo sells out a few: one in stock, the last)
  await shop.getByRole('searchbox', { name: 'Buscar productos' }).fill('Polo algodón');
  await shop.getByRole('button', { name: 'Polo algodón pima clásico' }).click();
  const polo = shop.getByRole('dialog', { name: 'Polo algodón pima clásico' });
  const variant = polo.getByRole('group', { name: 'Elige talla y color' }).getByRole('button').and(polo.locator(':enabled')).last();
  const variantLabel = ((await variant.textContent()) ?? '').trim();
  expect(variantLabel).toMatch(/^Talla \S+ · .+/);
  await variant.click();
  await expect(variant).toHaveAttribute('aria-pressed', 'true');
  await polo.getByRole('button', { name: 'Agregar uno' }).click();
  await polo.getByRole('button', { name: 'Agregar al carrito' }).click();

  // cart and checkout: 89.00 + 2 × 49.90 = 188.80
  await shop.getByRole('button', { name: /Ver carrito \(3\)/ }).click();
  await expect(shop.getByRole('heading', { name: 'Tu carrito' })).toBeVisible();
  await expect(shop.getByText(variantLabel)).toBeVisible();
  await shop.getByRole('button', { name: 'Continuar con el pedido' }).click();
  await shop.getByLabel('Nombre y apellido').fill(name);
  await shop.getByLabel('Teléfono (WhatsApp)').fill(`${mobile.slice(0, 3)} ${mobile.slice(3, 6)} ${mobile.slice(6)}`);
  await shop.getByLabel('Dirección').fill('Av. Larco 345, dpto. 802');
  await shop.getByLabel('Distrito o ciudad').fill('Miraflores');
  await shop.getByLabel('Referencia (opcional)').fill('Frente al parque Kennedy');
  await shop.getByRole('button', { name: 'Confirmar pedido · S/ 188.80' }).click();

  // the confirmation, with the order's code, and the customer's own page
  await expect(shop.getByRole('heading', { name: '¡Pedido recibido!' })).toBeVisible();
  const confirmation = ((await shop.locator('.shop-done').textContent()) ?? '').replace(/\s+/g, ' ');
  const code = /Tu pedido (P-[A-Z0-9]{6})/.exec(confirmation)?.[1] ?? '';
  expect(code, confirmation).toMatch(/^P-[A-Z0-9]{6}$/);
  expect(confirmation).toContain('S/ 188.80');
  await shop.getByRole('link', { name: 'Ver mi pedido' }).click();
  await expect(shop).toHaveURL(/\/ordenes\/[A-Za-z0-9_-]{32}$/);
  const customerPage = shop.url();
  await expect(shop.getByRole('heading', { name: `Pedido ${code}` })).toBeVisible();
  await expect(shop.getByText('Estado: Creada')).toBeVisible();
  await expect(shop.getByText('2 × S/ 49.90')).toBeVisible();

  // ── meanwhile, without a reload: the new order on top of /ordenes, announced ──
  const row = orders.getByRole('row').filter({ hasText: code });
  await expect(row).toBeVisible();
  await expect(orders.getByRole('row').nth(1)).toContainText(code);
  await expect(row).toContainText(name);
  await expect(row).toContainText('Creada');
  await expect(row).toContainText('S/ 188.80');
  await expect(staff.getByText(`Nueva orden ${code}`)).toBeVisible();
  expect(await stillNoReload(staff)).toBe(true);

  // … and the customer's chat, with the order's summary
  const chat = inbox.getByTestId('chat-item').filter({ hasText: name });
  await expect(chat).toBeVisible();
  await chat.click();
  const thread = inbox.getByRole('log', { name: 'Mensajes' });
  await expect(thread.getByText(`Nuevo pedido ${code} desde el catálogo digital`)).toBeVisible();
  await expect(thread.getByText(`2 × Polo algodón pima clásico (${variantLabel.replace(/^Talla /, '')})`)).toBeVisible();
  await expect(thread.getByText(/Envío a domicilio: Av\. Larco 345, dpto\. 802, Miraflores/)).toBeVisible();
  expect(await stillNoReload(inbox)).toBe(true);

  // ── the order's detail, and its moves ──
  await row.click();
  const detail = staff.getByRole('dialog', { name: `Orden ${code}` });
  await expect(detail).toBeVisible();
  await expect(detail.getByText(name)).toBeVisible();
  await expect(detail.getByText(`+51${mobile}`)).toBeVisible();
  await expect(detail.getByText('Av. Larco 345, dpto. 802, Miraflores')).toBeVisible();
  await expect(detail.getByText('Frente al parque Kennedy')).toBeVisible();
  const lines = detail.getByTestId('order-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: 'Polo algodón pima clásico' })).toContainText(variantLabel);
  await expect(lines.filter({ hasText: 'Polo algodón pima clásico' })).toContainText('2 × S/ 49.90');
  await expect(lines.filter({ hasText: 'Polo algodón pima clásico' })).toContainText('S/ 99.80');
  await expect(lines.filter({ hasText: 'Mochila escolar 20 L' })).toContainText('1 × S/ 89.00');
  await expect(detail.getByTestId('order-total')).toHaveText('S/ 188.80');
  await expect(detail.getByText('Catálogo digital')).toBeVisible();
  await expect(detail.getByRole('link', { name: 'Abrir chat del cliente' })).toHaveAttribute('href', /\/chat\?chatId=/);

  // only the moves a created order allows
  const moves = detail.getByRole('group', { name: 'Cambiar estado' }).getByRole('button');
  await expect(moves).toHaveText(['Marcar como pagada', 'Marcar como enviada', 'Cancelar orden']);
  await detail.getByRole('button', { name: 'Marcar como pagada' }).click();
  await expect(staff.getByText('Registro actualizado con éxito')).toBeVisible();
  await expect(moves).toHaveText(['Marcar como enviada', 'Cancelar orden']);
  await expect(detail.getByText('Pagada', { exact: true })).toBeVisible();

  // the customer's page says so on their next look
  await shop.goto(customerPage);
  await expect(shop.getByText('Estado: Pagada')).toBeVisible();

  // cancelling asks first, and says what it does
  await detail.getByRole('button', { name: 'Cancelar orden' }).click();
  const warning = staff.getByRole('dialog', { name: 'Advertencia' });
  await expect(warning).toContainText(`La orden ${code} pasará a cancelada`);
  await warning.getByRole('button', { name: 'Cancelar orden' }).click();
  await expect(detail.getByText('Orden cancelada: sus unidades volvieron al stock.')).toBeVisible();
  await expect(detail.getByRole('group', { name: 'Cambiar estado' })).toHaveCount(0);
  await expect(detail.getByText('Cancelada', { exact: true })).toBeVisible();

  // closed, the list shows where it stands
  await detail.getByRole('button', { name: 'Cerrar' }).click();
  await expect(detail).toBeHidden();
  await expect(row).toContainText('Cancelada');
  expect(await stillNoReload(staff)).toBe(true);

  await phone.close();
});
