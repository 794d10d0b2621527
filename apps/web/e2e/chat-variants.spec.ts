import { randomInt } from 'node:crypto';
import { accounts, customerWrites, expect, signIn, test } from './helpers';

/**
 * A product by its variant (decision 0091): the agent opens the polo's sizes and colours in
 * «Productos», cannot tick a sold-out one, sends one in stock, and the thread's card names it.
 */
test('send a polo in one size and colour; a sold-out variant cannot be chosen', async ({ page, request }) => {
  const from = `519${randomInt(10_000_000, 99_999_999)}`;
  const name = `Rosa Quispe ${from.slice(-4)}`;
  await customerWrites(request, { from, name, text: '¿Tienen el polo pima en talla M?' });

  await signIn(page, accounts.demoAdmin);
  await page.goto('/chat');
  await page.getByRole('searchbox').first().fill(name);
  await page.getByTestId('chat-item').filter({ hasText: name }).first().click();
  await expect(page.getByTestId('thread-title')).toHaveText(name);

  await page.getByRole('button', { name: 'Productos' }).click();
  const picker = page.getByRole('dialog', { name: 'Enviar productos' });
  await picker.getByRole('textbox', { name: 'Buscar por nombre, SKU o categoría' }).fill('POLO-PIMA');
  const polo = picker.getByRole('listitem').filter({ hasText: 'Polo algodón pima clásico' }).first();
  await expect(polo).toContainText('12 variantes');
  await polo.getByRole('button', { name: 'Elegir talla o color' }).click();
  const variants = picker.getByRole('list', { name: 'Variantes de Polo algodón pima clásico' });
  await expect(variants.getByTestId('product-variant')).toHaveCount(12);
  // the demo sells out a few: each is marked and its box disabled
  const soldOut = variants.getByTestId('product-variant').filter({ hasText: 'Sin stock' });
  expect(await soldOut.count()).toBeGreaterThan(0);
  await expect(soldOut.first().getByRole('checkbox')).toBeDisabled();

  const inStock = variants.getByTestId('product-variant').filter({ hasNotText: 'Sin stock' }).first();
  const label = ((await inStock.locator('p').first().textContent()) ?? '').trim();
  expect(label).toMatch(/^Talla \w+ · /);
  await inStock.getByRole('checkbox').check();
  await expect(picker.getByTestId('products-chosen')).toContainText('1 de 30 elegidos');
  await picker.getByRole('button', { name: 'Enviar (1)' }).click();
  await expect(picker).toBeHidden();

  const card = page.getByRole('log').getByTestId('product-card').last();
  await expect(card).toContainText('Polo algodón pima clásico');
  await expect(card.getByTestId('product-variant-label')).toHaveText(label);
  await expect(card).toContainText(/SKU POLO-PIMA-\w+-\d/);
});
