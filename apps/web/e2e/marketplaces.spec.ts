import { accounts, expect, signIn, test } from './helpers';

// each flow waits on the sandbox marketplace (a sync, a feed): room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * Marketplaces (issue 12, decision 0035), as the owner of Demo Perú uses them on the sandbox
 * Seller Center accounts seeded by `npm start`: the connection test and a sync, a variation's
 * price edited and sent, an order's items, invoice and shipping label after marking it ready to
 * ship, and a bulk update pasted from a spreadsheet: preview old → new, send, report.
 */

test('accounts: the sandbox connection test and a sync followed to its end; the API key never shows', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketplaces/fuentes');
  await expect(page.getByRole('heading', { name: 'Fuentes de marketplace', level: 1 })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('sandbox0falabella0pe');
  await page.getByRole('button', { name: 'Probar conexión de Falabella Perú' }).click();
  await expect(page.getByText(/Conexión correcta con Falabella Perú \(sandbox\): lee productos y órdenes/)).toBeVisible();
  await page.getByRole('button', { name: 'Probar conexión de Mercado Libre Chile' }).click();
  await expect(page.getByText(/Mercado Libre aún no se conecta/)).toBeVisible();
  await page.getByRole('button', { name: 'Sincronizar Falabella Perú' }).click();
  const run = page.getByTestId('sync-run').filter({ hasText: 'Falabella Perú' }).first();
  await expect(run).toContainText('Terminada', { timeout: 30_000 });
  await expect(run).toContainText('0 nuevos');
});

test('a variation: price edited here (pending), then sent to the marketplace', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketplaces/productos');
  await expect(page.getByRole('heading', { name: 'Productos de marketplace', level: 1 })).toBeVisible();
  await page.getByRole('row').filter({ hasText: 'CHOMPA-ALP' }).filter({ hasText: 'Falabella Perú' }).getByRole('link', { name: 'Variaciones' }).click();
  await expect(page).toHaveURL(/\/marketplaces\/productos-variaciones\?producto=/);
  const row = page.getByRole('row').filter({ hasText: 'CHOMPA-ALP-GRIS-L' });
  await expect(row).toContainText('Sincronizada');
  await row.getByRole('button', { name: 'Editar precio y stock de CHOMPA-ALP-GRIS-L' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Precio').fill('179,50');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(row).toContainText('Cambios sin enviar');
  await expect(row).toContainText('179.50');
  await row.getByRole('button', { name: 'Enviar CHOMPA-ALP-GRIS-L al marketplace' }).click();
  await expect(page.getByText('Enviado a Falabella Perú (sandbox)')).toBeVisible();
  await expect(row).toContainText('Sincronizada');
});

test('an order: its items, the invoice, ready to ship, then the shipping label', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketplaces/ordenes');
  await expect(page.getByRole('heading', { name: 'Órdenes de marketplace', level: 1 })).toBeVisible();
  await page.getByRole('row').filter({ hasText: 'María Fernández' }).click();
  const drawer = page.getByRole('presentation').filter({ hasText: 'Orden 3150044101' });
  await expect(drawer.getByTestId('marketplace-order-item')).toHaveCount(2);
  await expect(drawer).toContainText('Pendiente');
  const invoice = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Factura' }).click();
  expect((await invoice).suggestedFilename()).toBe('factura-3150044101.pdf');
  // the label needs the order ready to ship: the marketplace's reason, in Spanish
  await drawer.getByRole('button', { name: 'Etiqueta de envío' }).click();
  await expect(drawer.getByText(/Primero marca la orden como lista para enviar/)).toBeVisible();
  await drawer.getByRole('button', { name: 'Marcar lista para enviar' }).click();
  await expect(page.getByText('Orden 3150044101 lista para enviar en Falabella Perú')).toBeVisible();
  await expect(drawer.getByTestId('marketplace-order-item').first()).toContainText('Lista para enviar');
  const label = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Etiqueta de envío' }).click();
  expect((await label).suggestedFilename()).toBe('etiqueta-de-envio-3150044101.pdf');
});

test('a bulk update pasted from a spreadsheet: preview old → new with reasons, sent, and its report', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketplaces/lote');
  await expect(page.getByRole('heading', { name: 'Actualización masiva', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Fuente de marketplace' }).click();
  await page.getByRole('option', { name: 'Falabella Perú' }).click();
  await page
    .getByLabel('Tabla (copiada de una hoja de cálculo)')
    .fill('SKU\tPrecio\tStock\nPOLO-PIMA-BLANCO-M\t64,90\t\nZAP-URB-40\t\t8\nNO-EXISTE\t10\t1\nMOCHILA-URB\t129\t');
  await page.getByRole('button', { name: 'Ver qué cambia' }).click();
  await expect(page).toHaveURL(/\?lote=/);
  await expect(page.getByText('Cambia: 2')).toBeVisible();
  await expect(page.getByText('Sin cambios: 1')).toBeVisible();
  await expect(page.getByText('Fila no válida: 1')).toBeVisible();
  const polo = page.getByTestId('bulk-row').filter({ hasText: 'POLO-PIMA-BLANCO-M' });
  await expect(polo).toContainText(/59\.90 →\s*S\/\s*64\.90/);
  await expect(page.getByTestId('bulk-row').filter({ hasText: 'ZAP-URB-40' })).toContainText('5 → 8');
  await expect(page.getByTestId('bulk-row').filter({ hasText: 'NO-EXISTE' })).toContainText('El SKU NO-EXISTE no existe en Falabella Perú');
  await page.getByRole('button', { name: 'Enviar 2 cambios' }).click();
  await expect(page.getByText(/2 enviadas, 0 rechazadas por el marketplace, 1 no válidas/)).toBeVisible({ timeout: 30_000 });
  await expect(polo).toContainText('Enviada');
  // what was sent is now what the marketplace has
  await page.goto('/marketplaces/productos-variaciones?q=POLO-PIMA-BLANCO-M');
  await expect(page.getByRole('row').filter({ hasText: 'Falabella Perú' }).filter({ hasText: 'POLO-PIMA-BLANCO-M' })).toContainText('64.90');
});
