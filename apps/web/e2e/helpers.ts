import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo1234';

export const accounts = {
  demoAdmin: { corporation: 'demo', email: 'admin@demo.com', password: DEMO_PASSWORD },
  demoAgent: { corporation: 'demo', email: 'agente@demo.com', password: DEMO_PASSWORD },
  acmeAdmin: { corporation: 'acme', email: 'admin@acme.com', password: DEMO_PASSWORD },
} as const;

export interface Credentials {
  corporation: string;
  email: string;
  password: string;
}

/** Fills the login form the way a person does and submits it. */
export async function submitLogin(page: Page, { corporation, email, password }: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Corporación').fill(corporation);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

/** Signs in, waits for the landing (the inbox, decision 0026), then opens the profile screen. */
export async function signIn(page: Page, credentials: Credentials): Promise<void> {
  await submitLogin(page, credentials);
  await expect(page).toHaveURL(/\/chat$/);
  await page.goto('/perfil');
  await expect(page.getByRole('heading', { name: 'Perfil', level: 1 })).toBeVisible();
}
