import { accounts, expect, signIn, submitLogin, test } from './helpers';

test('/ redirects to /login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
});

test('signing in lands on the inbox with a welcome; the profile shows the name', async ({ page }) => {
  await submitLogin(page, accounts.demoAdmin);

  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('success-snackbar')).toContainText('Bienvenido');
  await page.goto('/perfil');
  await expect(page.getByTestId('profile-name')).toHaveText('Ana Administradora');
  await expect(page.getByRole('main')).toContainText('admin@demo.com');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Perfil' })).toBeVisible();
});

test('a wrong password shows the server message in the error snackbar', async ({ page }) => {
  // One failure only: login is rate-limited per account.
  await submitLogin(page, { ...accounts.acmeAdmin, password: 'no-es-la-clave' });

  const snackbar = page.getByTestId('error-snackbar');
  await expect(snackbar).toBeVisible();
  await expect(snackbar).toContainText('Correo, contraseña o corporación incorrectos');
  await expect(page).toHaveURL(/\/login$/);

  // The error snackbar stays until closed.
  await page.waitForTimeout(3500);
  await expect(snackbar).toBeVisible();
  await snackbar.getByRole('button', { name: 'Cerrar' }).click();
  await expect(snackbar).toBeHidden();
});

test('a reload keeps the session', async ({ page }) => {
  await signIn(page, accounts.demoAgent);
  await page.reload();

  await expect(page).toHaveURL(/\/perfil$/);
  await expect(page.getByTestId('profile-name')).toBeVisible();
  await expect(page.getByRole('main')).toContainText('agente@demo.com');
});

test('logout goes to /login and a reload stays there', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);

  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();

  await expect(page).toHaveURL(/\/login$/);
  const stored = await page.evaluate(() => ['token', 'tokenExpiry', 'user', 'companyId'].map((k) => localStorage.getItem(k)));
  expect(stored).toEqual([null, null, null, null]);

  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();

  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login$/);
});

test('a protected URL without a token goes to /login', async ({ page }) => {
  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
});
