import { accounts, expect, signIn, test } from './helpers';

test("a customer's message that could not be processed is shown with its error, and «Reintentar» brings it to the inbox", async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/whatsapp');
  await page.getByRole('link', { name: /Eventos fallidos/ }).click();
  await expect(page).toHaveURL(/\/whatsapp\/fallidos$/);
  const card = page.getByTestId('dead-letter').filter({ hasText: 'Marco Paredes' });
  await expect(card).toContainText('Hola, ¿hacen envíos a Arequipa?');
  await expect(card).toContainText('la base de datos no respondió');
  await card.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByTestId('dead-letter').filter({ hasText: 'Marco Paredes' })).toHaveCount(0, { timeout: 15_000 });

  await page.goto('/chat');
  await page.getByRole('searchbox', { name: 'Buscar por nombre, teléfono o mensaje' }).fill('Marco Paredes');
  await expect(page.getByText('Marco Paredes').first()).toBeVisible({ timeout: 15_000 });
});
