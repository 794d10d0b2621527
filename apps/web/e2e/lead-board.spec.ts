import { randomInt } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { accounts, customerWrites, expect, signIn, test } from './helpers';

/**
 * The pipeline board (issue 31, decision 0099), end to end: a customer writes on WhatsApp; on
 * /lead/tablero their card is dragged to «Cotización enviada» (a demo stage of «Informado al
 * agente») and the spec's /lead/informado-al-agente still lists them; then, on a phone, the
 * columns scroll sideways and «Mover a…» takes the card to «Compra realizada».
 */
async function dragTo(page: Page, card: Locator, column: Locator) {
  const handle = card.getByRole('button', { name: /^Arrastrar a otra columna/ });
  await column.scrollIntoViewIfNeeded();
  await handle.scrollIntoViewIfNeeded();
  const from = await handle.boundingBox();
  const to = await column.boundingBox();
  if (!from || !to) throw new Error('sin posición para arrastrar');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // past the sensor's activation distance, then over the column
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 4, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 12 });
  // the board scrolls itself sideways while a card nears its edge: follow the column until it stays put
  for (let i = 0; i < 5; i++) {
    await page.waitForTimeout(250);
    const now = await column.boundingBox();
    if (!now) break;
    await page.mouse.move(now.x + now.width / 2, now.y + 80, { steps: 4 });
    if (Math.abs(now.x - to.x) < 2) break;
    to.x = now.x;
  }
  await page.mouse.up();
}

test('drag a card to a company stage, find it in its status list, move it with «Mover a…» on a phone', async ({ page, request }) => {
  test.setTimeout(120_000);
  const from = `519${randomInt(10_000_000, 99_999_999)}`;
  const name = `Tablero ${from.slice(-5)}`;
  await customerWrites(request, { from, name, text: 'Hola, quiero una cotización por 10 cajas' });
  await signIn(page, accounts.demoAdmin);

  await page.goto('/lead/tablero');
  await expect(page.getByRole('heading', { name: 'Tablero de leads', level: 1 })).toBeVisible();
  const quote = page.getByRole('region', { name: 'Cotización enviada' });
  await expect(quote).toBeVisible();
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible({ timeout: 20_000 });

  await dragTo(page, card, quote);
  await expect(page.getByText('Lead movido a «Cotización enviada»')).toBeVisible();
  await expect(quote.getByRole('article', { name })).toBeVisible();

  // the spec's list of its status still lists it
  await page.goto('/lead/informado-al-agente');
  await page.getByRole('searchbox').first().fill(name);
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();

  // a phone: the columns scroll sideways, and «Mover a…» moves the card
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/lead/tablero');
  const columns = page.getByTestId('board-columns');
  await expect(columns).toBeVisible();
  const overflow = await columns.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(overflow.scroll).toBeGreaterThan(overflow.client);
  const onPhone = page.getByRole('region', { name: 'Cotización enviada' }).getByRole('article', { name });
  await onPhone.scrollIntoViewIfNeeded();
  await onPhone.getByRole('button', { name: `Mover a…: ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Compra realizada' }).click();
  await expect(page.getByText('Lead movido a «Compra realizada»')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Compra realizada' }).getByRole('article', { name })).toBeAttached();

  // «Embudo de etapas» has numbers
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Embudo de etapas' }).click();
  // the stage report: a row per column (its name first; the others' rows name it as a destination)
  await expect(page.getByRole('table', { name: 'Embudo de etapas' }).getByTestId('funnel-sin-asignar')).toContainText('Sin asignar');
});
