import { accounts, expect, signIn, test } from './helpers';

// the sync goes through the job queue and the demo's sandbox audiences: room for a busy machine
test.describe.configure({ timeout: 90_000 });

/**
 * Mailchimp (issue 15, decision 0051) on the demo's sandbox audiences: the key is never shown
 * back, «Probar conexión» says the audience, the seeded sync has its per-contact report, and a
 * segment labelled from Leads with «Enviar también a Mailchimp» becomes a sync that ends with its
 * counts and report on /mailchimp, its contacts on /mailchimp/contactos.
 */
test('a labels sync from Leads reaches Mailchimp with its progress and report', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/mailchimp');
  await expect(page.getByRole('heading', { name: 'Mailchimp', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: /Boletín clientes/ });
  await expect(row.getByTestId('mailchimp-key')).toHaveText('API key guardada · sandbox…us21');
  expect(await page.content()).not.toContain('sandbox0clientes');

  await row.getByRole('button', { name: 'Probar conexión: Boletín clientes' }).click();
  const probe = page.getByRole('dialog', { name: 'Probar conexión · Boletín clientes' });
  await expect(probe.getByTestId('mailchimp-test-result')).toContainText('Conexión correcta');
  await probe.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(row.getByTestId('mailchimp-connection')).toHaveText('Conectada');

  // the seeded sync of three days ago and its report
  const panel = page.getByTestId('mailchimp-syncs');
  const seeded = panel.getByTestId('mailchimp-sync').filter({ hasText: /^Etiquetas/ }).first();
  await expect(seeded.getByTestId('mailchimp-sync-status')).toHaveText('Terminada');
  await seeded.getByRole('button', { name: /^Ver el informe/ }).click();
  const report = page.getByRole('dialog', { name: 'Informe por contacto' });
  await expect(report.getByTestId('mailchimp-report').getByRole('row').nth(1)).toBeVisible();
  await report.getByRole('button', { name: /^Omitidos/ }).click();
  // the reason shows in its own column on a wide screen, under the contact on a narrow one: the one on screen
  await expect(report.getByText('Sin correo electrónico: Mailchimp identifica a cada contacto por su correo').filter({ visible: true }).first()).toBeVisible();
  await report.getByRole('button', { name: 'Cerrar' }).last().click();

  // a segment labelled from Leads, sent to Mailchimp too
  await page.goto('/lead/todos?vista=personas');
  await page.getByRole('button', { name: 'Etiquetar segmento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Etiquetar segmento' });
  await dialog.getByRole('combobox', { name: 'Segmento' }).click();
  await page.getByRole('option', { name: 'Para reconectar' }).click();
  await dialog.getByRole('combobox', { name: 'Etiquetas' }).click();
  await page.getByRole('option', { name: 'Cliente frecuente' }).click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('checkbox', { name: 'Enviar también a Mailchimp' }).check();
  await dialog.getByRole('button', { name: 'Etiquetar' }).click();
  await dialog.getByRole('link', { name: 'sigue el envío y su informe' }).click();

  await expect(page).toHaveURL(/\/mailchimp$/);
  const latest = page.getByTestId('mailchimp-sync').first();
  await expect(latest).toContainText('Etiquetas «Cliente frecuente» a Mailchimp · segmento Para reconectar');
  await expect(latest.getByTestId('mailchimp-sync-status')).toHaveText('Terminada', { timeout: 45_000 });
  await expect(latest.getByTestId('mailchimp-sync-counts')).toHaveText(/^\d[\d,.]* de \d[\d,.]* contactos · \d[\d,.]* enviados?/);
  await latest.getByRole('button', { name: /^Ver el informe/ }).click();
  await page.getByRole('dialog', { name: 'Informe por contacto' }).getByRole('button', { name: /^Enviados/ }).click();
  await expect(page.getByRole('dialog', { name: 'Informe por contacto' }).getByTestId('mailchimp-report')).toContainText('Cliente frecuente');
  await page.getByRole('dialog', { name: 'Informe por contacto' }).getByRole('button', { name: 'Cerrar' }).last().click();

  // what reached the audiences is on the contacts screen
  await page.goto('/mailchimp/contactos');
  await expect(page.getByRole('heading', { name: 'Contactos de Mailchimp', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
});
