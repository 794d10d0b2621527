import { accounts, expect, signIn, test } from './helpers';

// a sign-in, two screens, a dialog each: room for a busy machine
test.describe.configure({ timeout: 60_000 });

type Summary = { _id: string; windowOpenUntil?: string };

/**
 * WhatsApp templates (issue 13, decision 0038) on the demo's sandbox: the templates of the line
 * in every status, a new one submitted for review, and an approved one sent from a WhatsApp
 * chat whose 24-hour window is closed, shown in the thread.
 */
test('the line’s templates, a new one in review, and one sent from a closed chat', async ({ page, request }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/mensajes_de_plantilla');
  await expect(page.getByRole('heading', { name: 'Mensajes de plantilla', level: 1 })).toBeVisible();
  const rows = page.getByTestId('template-row');
  await expect(rows.filter({ hasText: 'oferta_relampago' })).toContainText('Motivo del rechazo: Contenido promocional');
  for (const status of ['Aprobada', 'En revisión', 'Rechazada', 'Pausada', 'Desactivada']) {
    await expect(rows.filter({ hasText: status }).first()).toBeVisible();
  }

  const name = `aviso_e2e_${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Nueva plantilla' }).click();
  const form = page.getByRole('form', { name: 'Nueva plantilla de WhatsApp' });
  await form.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await form.getByRole('textbox', { name: 'Texto del mensaje' }).fill('Hola {{1}}, tu pedido ya está listo para recoger.');
  await form.getByRole('textbox', { name: 'Ejemplo de {{1}}' }).fill('María');
  await expect(page.getByRole('figure', { name: 'Vista previa de la plantilla nueva' })).toContainText('Hola María, tu pedido ya está listo');
  await form.getByRole('button', { name: 'Enviar a Meta' }).click();
  await expect(form).toBeHidden();
  await expect(rows.filter({ hasText: name })).toContainText('En revisión');

  // a WhatsApp chat outside the window (the demo has some)
  const login = await request.post('/api/login', { data: accounts.demoAdmin });
  const { token, user } = (await login.json()) as { token: string; user: { companyId: string } };
  const res = await request.get('/api/chats/get_chats?limit=100&platform=whatsapp', { headers: { authorization: `Bearer ${token}`, 'x-company-id': user.companyId } });
  const closed = ((await res.json()) as { payload: Summary[] }).payload.find((c) => c.windowOpenUntil && Date.parse(c.windowOpenUntil) < Date.now());
  expect(closed, 'un chat de WhatsApp con la ventana cerrada en la demo').toBeTruthy();
  await page.goto(`/chat?chatId=${(closed as Summary)._id}`);
  const banner = page.getByTestId('outside-window');
  await expect(banner).toContainText('Envíale una plantilla aprobada');
  await banner.getByRole('button', { name: 'Enviar plantilla' }).click();
  const picker = page.getByRole('form', { name: 'Enviar una plantilla de WhatsApp' });
  await picker.getByRole('combobox', { name: 'Plantilla aprobada' }).click();
  await page.getByRole('option', { name: /^seguimiento_cotizacion/ }).click();
  // {{1}} is the lead's name and {{2}} the company's: both prefilled
  await expect(picker.getByRole('textbox', { name: '{{2}} · Nombre de tu empresa' })).toHaveValue('Demo Perú');
  await expect(picker.getByRole('textbox', { name: '{{1}} · Nombre del lead' })).not.toHaveValue('');
  await picker.getByRole('button', { name: 'Enviar plantilla' }).click();
  await expect(picker).toBeHidden();
  const sent = page.getByTestId('message').filter({ has: page.getByTestId('template-label') }).last();
  await expect(sent).toContainText('Plantilla · seguimiento_cotizacion');
  await expect(sent).toContainText('te escribimos de Demo Perú');
});
