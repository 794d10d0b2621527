import { accounts, expect, signIn, test } from './helpers';

// the chunk goes through the job queue and the sandbox line: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * A campaign's chunks (issue 13, decision 0041) on the demo's sandbox line: the demo's planned
 * campaign «Seguimiento de cotizaciones» (an approved template), its first chunk sent from the
 * campaign page, followed live until it is sent, and its recipients with their status.
 */
test('send a campaign’s first chunk, watch it finish, and see its recipients', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/marketing/campaigns');
  await page.getByRole('link', { name: 'Ver envíos: Seguimiento de cotizaciones' }).click();
  await expect(page.getByRole('heading', { name: 'Seguimiento de cotizaciones', level: 1 })).toBeVisible();

  const first = page.getByRole('listitem', { name: 'Bloque 1' });
  await expect(first.getByTestId('chunk-status')).toHaveText('Sin enviar');
  await first.getByRole('button', { name: 'Enviar ahora' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Enviar ahora' }).click();
  await expect(page.getByText('Bloque en cola de envío')).toBeVisible();

  // the sandbox line accepts the messages: the row moves by itself (send.progress), no reload
  await expect(first.getByTestId('chunk-status')).toHaveText(/^Enviado/, { timeout: 40_000 });
  await expect(first.getByTestId('count-queued')).toHaveText('0');
  await expect(first.getByTestId('count-sent')).not.toHaveText('0');

  await first.getByRole('button', { name: 'Ver destinatarios' }).click();
  const dialog = page.getByRole('dialog', { name: 'Destinatarios del bloque 1' });
  const table = dialog.getByRole('table', { name: 'Destinatarios' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expect(table.getByText(/^(Enviado|Entregado|Leído)$/).first()).toBeVisible();
  await expect(table.getByRole('link', { name: /^Abrir chat de / }).first()).toHaveAttribute('href', /^\/chat\?chatId=/);
});
