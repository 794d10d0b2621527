import type { Page } from '@playwright/test';
import { accounts, expect, signIn, test } from './helpers';

/**
 * WooCommerce stores (issue 12, decision 0034), as the owner of Demo Perú uses them: the Perú
 * sandbox store's connection test, a sync followed live to its end with its counts and report,
 * and a product's page where a variation's price is edited, saved and sent to the store.
 */

/** Records every state the first sync card shows, as the page paints it (the run may be quick). */
async function watchStatuses(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { syncStatuses: string[] }).syncStatuses = seen;
    const note = () => {
      const text = document.querySelector('[data-testid="sync-panel"] [data-testid="sync-run"] [data-testid="sync-status"]')?.textContent ?? '';
      if (text && seen.at(-1) !== text) seen.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    note();
  });
}

test('the Perú sandbox store: connection test, a sync watched to its end, and a variation price edited on the product page', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, accounts.demoAdmin);

  await page.goto('/woocommerce');
  await expect(page.getByRole('heading', { name: 'WooCommerce', level: 1 })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Lima principal' });
  await expect(row.getByText('Claves guardadas')).toBeVisible();
  // the keys are sealed: never on the page
  await expect(page.locator('body')).not.toContainText('ck_sandbox');

  // connection test: what the store said, part by part
  await row.getByRole('button', { name: 'Probar conexión: Lima principal' }).click();
  const test_ = page.getByRole('dialog', { name: 'Probar conexión · Lima principal' });
  await expect(test_.getByTestId('connection-result')).toContainText('Conexión correcta con Lima principal (tienda de prueba)');
  await expect(test_.getByRole('listitem').filter({ hasText: 'Dirección (URL)' })).toContainText('Responde como una tienda WooCommerce');
  await expect(test_.getByRole('listitem').filter({ hasText: 'Permisos de las claves' })).toContainText('Lectura y escritura');
  await expect(test_).toContainText(/La tienda tiene \d+ productos/);
  await test_.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(row.getByTestId('connection-chip')).toHaveText('Conectada');

  // a sync, followed without reloading: queued or running, then done, the bar full, the counts
  await watchStatuses(page);
  await row.getByRole('button', { name: 'Sincronizar: Lima principal' }).click();
  await expect(page.getByText('Sincronización iniciada')).toBeVisible();
  const card = page.getByTestId('sync-panel').getByTestId('sync-run').first();
  await expect(card).toContainText('Lima principal · Perú');
  await expect(card.getByTestId('sync-status')).toHaveText('Terminada', { timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { syncStatuses: string[] }).syncStatuses);
  expect(seen.at(-1)).toBe('Terminada');
  expect(seen.some((s) => s === 'En cola' || s === 'Sincronizando')).toBe(true);
  await expect(card.getByRole('progressbar', { name: 'Progreso de Lima principal' })).toHaveAttribute('aria-valuenow', '100');
  const counts = card.getByTestId('sync-counts');
  await expect(counts).toContainText('(100 %)');
  const [done, total] = ((await card.getByTestId('sync-done').textContent()) ?? '').split(' de ').map((n) => Number(n.replace(/\D/g, '')));
  expect(done).toBeGreaterThan(10);
  expect(done).toBe(total);
  // the demo's stores were synced when it was seeded: a second sync changes nothing and sends nothing
  await expect(counts).toContainText('sin cambios');
  await expect(counts).not.toContainText('creados');
  await expect(counts).not.toContainText('enviados a la tienda');
  await expect(row.getByTestId('sync-status')).toHaveText('Terminada');
  await card.getByRole('button', { name: 'Ver el informe de Lima principal' }).click();
  const report = page.getByRole('dialog', { name: /Informe de la sincronización · Lima principal/ });
  await expect(report.getByRole('table', { name: 'Resultado' })).toContainText('Elementos revisados');
  await expect(report.getByTestId('no-errors')).toHaveText('Sin errores: todos los elementos revisados se sincronizaron.');
  await report.getByRole('button', { name: 'Cerrar' }).last().click();

  // the product's page: a variation's price, saved here, then sent to the store
  await page.goto('/ecommerce/productos?q=POLO-PIMA');
  const peru = page.getByRole('row').filter({ hasText: 'POLO-PIMA' }).filter({ hasText: 'Perú' });
  await peru.getByRole('link', { name: 'Polo piqué algodón pima' }).click();
  await expect(page).toHaveURL(/\/ecommerce\/productos\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Polo piqué algodón pima', level: 1 })).toBeVisible();
  const variation = page.getByRole('listitem', { name: 'Variación POLO-PIMA-BLANCO-M' });
  const price = variation.getByRole('textbox', { name: 'Precio de POLO-PIMA-BLANCO-M' });
  await expect(price).toHaveValue('59.9');
  await price.fill('62,50');
  await expect(variation.getByText('Sin guardar')).toBeVisible();
  await variation.getByRole('button', { name: 'Guardar POLO-PIMA-BLANCO-M' }).click();
  await expect(variation.getByTestId('variation-note')).toContainText('Guardada en Mostrador');
  await variation.getByRole('button', { name: 'Enviar POLO-PIMA-BLANCO-M a la tienda' }).click();
  await expect(variation.getByTestId('variation-note')).toHaveText('Guardado y enviado a Lima principal');
  // the same SKU in Chile, side by side: its price differs
  const crossover = page.getByTestId('crossover');
  await expect(crossover.getByRole('link', { name: 'Chile' })).toBeVisible();
  await expect(crossover.getByRole('row').filter({ hasText: 'Precio' }).locator('[data-differs]')).toHaveCount(1);

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Precio de POLO-PIMA-BLANCO-M' })).toHaveValue('62.5');
  await expect(page.getByRole('listitem', { name: 'Variación POLO-PIMA-BLANCO-M' }).getByText('Sin guardar')).toHaveCount(0);
});
