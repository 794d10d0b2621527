import { accounts, expect, signIn, test } from './helpers';

/**
 * /configuracion/api (issue 28, decision 0071) end to end: the owner makes a key on the screen,
 * copies the secret shown once, an integrator's script calls the API with it alone, and once
 * «Revocar» is confirmed its very next call is refused. At a desktop width and on a phone.
 */
for (const [width, height] of [
  [1280, 860],
  [375, 812],
] as const) {
  test(`a key made on the screen reads leads by itself and stops once revoked (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, accounts.demoAdmin);
    await page.goto('/configuracion/api');
    await expect(page.getByRole('heading', { name: 'Claves de API' })).toBeVisible();
    await expect(page.getByTestId('api-key').filter({ hasText: 'ERP contable' })).toContainText('Último uso');

    const name = `Reportes ${width}`;
    await page.getByRole('button', { name: 'Nueva clave' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('Leads y contactos: Listar').check();
    await dialog.getByRole('button', { name: 'Crear clave' }).click();
    const secret = await page.getByTestId('secret-once').inputValue();
    expect(secret).toMatch(/^mst_/);
    await page.getByRole('button', { name: 'Listo, ya lo copié' }).click();

    const card = page.getByTestId('api-key').filter({ hasText: name });
    await expect(card).toContainText('Nunca usada');
    await expect(card).toContainText(secret.slice(0, 12));
    await expect(card).not.toContainText(secret);
    // its box stays inside the screen on a phone
    const box = await card.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);

    const leads = await request.get('/api/leads?limit=1', { headers: { authorization: `Bearer ${secret}` } });
    expect(leads.status()).toBe(200);
    expect((await leads.json()).totalDocs).toBeGreaterThan(0);
    const write = await request.post('/api/leads', { headers: { authorization: `Bearer ${secret}` }, data: { name: 'No', platform: 'whatsapp', status: 'sin-asignar' } });
    expect(write.status()).toBe(401);

    await page.reload();
    await expect(card).toContainText('Último uso: ahora');
    await card.getByRole('button', { name: 'Revocar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revocar' }).click();
    await expect(page.getByTestId('api-key').filter({ hasText: name })).toHaveCount(0);
    const after = await request.get('/api/leads?limit=1', { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status()).toBe(401);
    expect((await after.json()).errors.msg).toBe('La clave de API no es válida o fue revocada');
  });
}
