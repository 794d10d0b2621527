import { accounts, expect, signIn, test } from './helpers';

// the send goes through the job queue and the sandbox line: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * A massive send (issue 13, decision 0043) on the demo's sandbox line: people with the demo's
 * Mostrador labels, an approved WhatsApp template, the pre-send check, the confirmation, the
 * send's progress live until it is sent, and the send in the history.
 */
test('compose a massive send, see its check, send it, watch it finish and find it in the history', async ({ page }) => {
  const name = `Promo e2e ${Date.now().toString(36)}`;
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketing/massive-messages');
  await expect(page.getByRole('heading', { name: 'Mensajes masivos', level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Nombre del envío' }).fill(name);
  await page.getByRole('radio', { name: 'Etiquetas Mostrador' }).check();
  await page.getByRole('combobox', { name: 'Etiquetas' }).click();
  await page.getByRole('option', { name: 'Cliente frecuente' }).click();
  await page.getByRole('combobox', { name: 'Etiquetas' }).click();
  await page.getByRole('option', { name: 'Mayorista' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Plantilla de WhatsApp' }).click();
  await page.getByRole('option', { name: /promo_fin_de_mes/ }).click();
  await expect(page.getByRole('figure', { name: 'Vista previa de la plantilla' })).toBeVisible();

  // the check: who gets it out of the audience, why the rest do not, the limit and the cost
  const check = page.getByRole('region', { name: 'Revisión previa' });
  await expect(check.getByTestId('check-queued')).not.toHaveText('0');
  await expect(check.getByRole('list', { name: 'Razones de los omitidos' })).toBeVisible();
  await expect(check.getByTestId('check-daily-limit')).toContainText('Límite diario de la línea');
  await expect(check.getByTestId('check-cost-total')).toContainText('S/');
  await expect(check.getByTestId('check-blocking')).toHaveCount(0);
  const queued = (await check.getByTestId('check-queued').textContent()) ?? '';

  const send = page.getByRole('button', { name: 'Enviar', exact: true });
  await expect(send).toBeEnabled();
  await send.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`«${name}» se enviará a ${queued} ${queued === '1' ? 'persona' : 'personas'}`);
  await expect(dialog).toContainText('Costo estimado');
  await dialog.getByRole('button', { name: 'Enviar' }).click();

  // the sandbox line accepts the messages: the progress moves by itself (send.progress)
  const progress = page.getByRole('region', { name: 'Avance del envío' });
  await expect(progress).toBeVisible();
  await expect(progress.getByTestId('send-status')).toHaveText(/^Enviado/, { timeout: 40_000 });
  await expect(progress.getByTestId('send-count-queued')).toHaveText('0');
  await expect(progress.getByTestId('send-count-sent')).not.toHaveText('0');

  await progress.getByRole('link', { name: 'Ver en el historial' }).click();
  await expect(page).toHaveURL(/\/marketing\/historial_mensajes_masivos/);
  await expect(page.getByText(name).first()).toBeVisible();
});
