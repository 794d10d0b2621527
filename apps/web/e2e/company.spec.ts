import { accounts, expect, signIn, test } from './helpers';

test('an admin switches to Demo Chile and keeps it after a reload', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);

  const switcher = page.getByRole('combobox', { name: 'Compañía' });
  await expect(switcher).toHaveText('Demo Perú');
  const table = page.getByRole('table', { name: 'Mis compañías' });
  await expect(table.getByRole('row', { name: /Demo Perú/ })).toContainText('Predeterminada');

  await switcher.click();
  await page.getByRole('option', { name: 'Demo Chile' }).click();

  await expect(switcher).toHaveText('Demo Chile');
  await expect(table.getByRole('row', { name: /Demo Chile/ })).toContainText('Seleccionada');
  expect(await page.evaluate(() => localStorage.getItem('companyId'))).toBeTruthy();

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Compañía' })).toHaveText('Demo Chile');
  await expect(page.getByRole('table', { name: 'Mis compañías' }).getByRole('row', { name: /Demo Chile/ })).toContainText(
    'Seleccionada',
  );
});

test('an agent sees only Demo Perú', async ({ page }) => {
  await signIn(page, accounts.demoAgent);
  const switcher = page.getByRole('combobox', { name: 'Compañía' });
  await expect(switcher).toHaveText('Demo Perú');
  await switcher.click();
  await expect(page.getByRole('option')).toHaveText(['Demo Perú']);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Mis compañías' })).toContainText('Agente');
});
