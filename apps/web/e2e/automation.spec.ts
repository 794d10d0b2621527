import { accounts, customerWrites, expect, signIn, test } from './helpers';

/**
 * Automation rules (issue 29, decision 0077) end to end: a rule built in the editor, a customer's
 * signed WhatsApp message sets it off through the spine, its run is read on the rule's card, and
 * what it did (a note) is in the chat it links to.
 */
test('a rule built in the editor fires on a customer message, and its run says what it did', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, accounts.demoAdmin);
  await page.goto('/automatizaciones');
  await expect(page.getByRole('heading', { name: 'Automatizaciones', level: 1 })).toBeVisible();

  const name = `Precios e2e ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Nueva regla' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Nombre/).fill(name);
  // the first condition is «Texto del mensaje contiene …»
  await dialog.getByTestId('condition-row').getByLabel(/^Valor/).fill('precio');
  const action = dialog.getByTestId('action-row');
  await action.getByRole('combobox', { name: 'Acción' }).click();
  await page.getByRole('option', { name: 'Dejar una nota interna' }).click();
  await action.getByLabel(/^Nota/).fill('Pidió precios: enviarle la lista');
  await dialog.getByRole('button', { name: 'Crear regla' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId('automation-rule').filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('rule-summary')).toContainText('contiene "precio"');

  // a customer asks for prices: the rule runs (accents and case do not matter)
  const from = `5199${Date.now().toString().slice(-7)}`;
  await customerWrites(request, { from, name: 'Cliente Reglas', text: '¿Qué PRÉCIO tiene el pack familiar?' });

  // its run shows on the card, with the condition as evaluated and the action done
  await expect(async () => {
    await page.reload();
    const fresh = page.getByTestId('automation-rule').filter({ hasText: name });
    await fresh.getByRole('button', { name: 'Ejecuciones' }).click();
    await expect(fresh.getByText('Hecha')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const runs = page.getByTestId('automation-rule').filter({ hasText: name });
  await expect(runs.getByText('Un cliente escribe').last()).toBeVisible();

  // the chat it links to has the note
  await runs.getByRole('link', { name: 'Ver el chat' }).first().click();
  await expect(page.getByRole('log', { name: 'Mensajes' }).getByText('Pidió precios: enviarle la lista')).toBeVisible();

  // cleaned up: the demo's rules stay as they were
  await page.goto('/automatizaciones');
  const mine = page.getByTestId('automation-rule').filter({ hasText: name });
  await mine.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /Eliminar|Aceptar/ }).click();
  await expect(mine).toHaveCount(0);
});
