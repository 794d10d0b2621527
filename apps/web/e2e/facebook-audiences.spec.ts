import { accounts, expect, signIn, test } from './helpers';

// the upload goes through the job queue and the demo's sandbox ad account: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * A Facebook custom audience (issue 15, decision 0048) on the demo's sandbox ad account: a new
 * audience has no id at Facebook; «Subir por etiquetas» sends the leads of a label, the upload's
 * bar moves live until it ends with its counts, the audience now exists at Facebook with its
 * people, and its history lists the send.
 */
test('an audience upload shows its progress and ends with its counts', async ({ page }) => {
  const name = `Recompra e2e ${Date.now().toString(36)}`;
  await signIn(page, accounts.demoAdmin);
  await page.goto('/facebook-audiencias');
  await expect(page.getByRole('heading', { name: 'Audiencias de Facebook', level: 1 })).toBeVisible();
  await expect(page.getByTestId('audience-account')).toContainText('sandbox');
  // the demo's audience filled in two past sends
  const seeded = page.getByRole('row', { name: /Clientes recurrentes/ });
  await expect(seeded.getByTestId('audience-members')).not.toHaveText('0 personas');

  await page.getByRole('button', { name: 'Nueva audiencia' }).click();
  const create = page.getByRole('dialog', { name: 'Nueva audiencia' });
  await create.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await create.getByRole('button', { name: 'Guardar' }).click();
  await expect(create).toBeHidden();
  await page.getByRole('searchbox', { name: 'Buscar', exact: true }).fill(name);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row.getByText('Sin crear en Facebook')).toBeVisible();
  await expect(row.getByText('Sin envíos todavía')).toBeVisible();

  await row.getByRole('button', { name: `Subir por etiquetas a ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Subir a «${name}»` });
  await dialog.getByRole('button', { name: 'Subir' }).click();
  await expect(dialog.getByText('Este campo es requerido')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Leads', exact: true }).check();
  await dialog.getByRole('combobox', { name: 'Etiquetas' }).click();
  await page.getByRole('option', { name: 'Cliente frecuente' }).click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Subir' }).click();

  // the bar while it goes, then the end with its counts
  const result = dialog.getByTestId('audience-upload-result');
  await expect(result.getByRole('progressbar', { name: 'Avance de la subida' })).toBeVisible({ timeout: 20_000 });
  await expect(result.getByTestId('audience-send-status')).toHaveText('Terminado', { timeout: 30_000 });
  const sent = ((await result.getByTestId('audience-count-sent').textContent()) ?? '').trim();
  expect(Number(sent.replace(/\D/g, ''))).toBeGreaterThan(0);
  await expect(result.getByTestId('audience-send-done')).toHaveText(new RegExp(`^${sent.replace('.', '\\.')} de \\S+$`));
  await expect(result.getByTestId('audience-count-invalid')).toBeVisible();
  await expect(result.getByTestId('audience-count-skipped')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  // created at Facebook on the way, its people counted, the send in its history
  await expect(row.getByText('En Facebook')).toBeVisible();
  await expect(row.getByTestId('audience-members')).toHaveText(sent === '1' ? '1 persona' : `${sent} personas`);
  await row.getByRole('button', { name: `Historial de envíos de ${name}` }).click();
  const history = page.getByRole('dialog', { name: `Envíos a «${name}»` });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByText('Cliente frecuente')).toBeVisible();
  await expect(history.getByTestId('audience-send-status')).toHaveText('Terminado');
});
