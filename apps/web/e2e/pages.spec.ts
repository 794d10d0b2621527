import { accounts, expect, signIn, test } from './helpers';

test('an unknown path shows the not-found page with a way back', async ({ page }) => {
  await page.goto('/esta-ruta-no-existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('/test shows the API and the database reachable', async ({ page }) => {
  await page.goto('/test');
  await expect(page.getByRole('heading', { name: 'Diagnóstico' })).toBeVisible();
  await expect(page.getByTestId('diag-api')).toHaveText('Disponible');
  await expect(page.getByTestId('diag-database')).toHaveText('Disponible');
  // which server and database run is told to admins only
  await expect(page.getByTestId('diag-database-kind')).toContainText('Solo para administradores');
  await expect(page.getByTestId('diag-version')).toContainText('Solo para administradores');
  await expect(page.getByTestId('diag-user')).toContainText('Sin sesión');
});

test('/test shows the signed-in user and company', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Diagnóstico' }).click();
  await expect(page).toHaveURL(/\/test$/);
  await expect(page.getByTestId('diag-user')).toContainText('admin@demo.com');
  await expect(page.getByTestId('diag-company')).toContainText('Demo Perú');
  await expect(page.getByTestId('diag-database-kind')).toContainText('PGlite');
  await expect(page.getByTestId('diag-version')).not.toContainText('Desconocido');
});

test('a bad registration link shows a clear message and no form', async ({ page }) => {
  await page.goto('/corporation/enlace-que-no-existe-123');
  await expect(page.getByRole('heading', { name: 'Enlace de registro no válido' })).toBeVisible();
  await expect(page.getByTestId('registration-invalid')).not.toBeEmpty();
  await expect(page.getByRole('button', { name: 'Registrar' })).toHaveCount(0);
});

test('the API docs (swagger-ui) load and list the API under the Content-Security-Policy', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Mostrador API/ })).toBeVisible();
  await expect(page.locator('.opblock').first()).toBeVisible();
});
