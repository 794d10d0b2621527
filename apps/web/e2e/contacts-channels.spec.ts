import { accounts, expect, signIn, test } from './helpers';

/** A number no other run uses, so the spec also passes on a database it already ran on. */
const unique = () => String(Date.now()).slice(-8);

test('a phone\'s contacts: from /telefonos to its list, create on that phone, delete', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/telefonos');
  await expect(page.getByRole('heading', { name: 'Teléfonos', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: /^Contactos: / }).first().click();
  await expect(page).toHaveURL(/\/telefonos\/contactos\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: /^Contactos de \+\d/, level: 1 })).toBeVisible();

  const name = `Contacto E2E ${unique()}`;
  await page.getByRole('button', { name: 'Nuevo contacto' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo contacto' });
  await dialog.getByRole('textbox', { name: /^Nombre/ }).fill(name);
  await dialog.getByRole('textbox', { name: /^Teléfono/ }).fill(`519${unique()}`);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();

  await page.getByRole('button', { name: `Eliminar: ${name}` }).click();
  await page.getByRole('dialog', { name: 'Advertencia' }).getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByRole('cell', { name, exact: true })).toHaveCount(0);

  await page.goto('/contactos');
  await expect(page.getByRole('heading', { name: 'Contactos', level: 1 })).toBeVisible();
  // the demo company's contacts are listed (a seeded example of the contract's contactos)
  await page.getByRole('searchbox', { name: 'Buscar', exact: true }).fill('Carmen Vargas');
  await expect(page.getByRole('cell', { name: 'Carmen Vargas', exact: true }).first()).toBeVisible();
});

// in Acme (Chile), which has no line: disconnecting Demo Perú's would leave the flows that use its line without one
test('/whatsapp: connect a line, see the webhook URLs, disconnect it', async ({ page }) => {
  await signIn(page, accounts.acmeAdmin);
  await page.goto('/whatsapp');
  const form = page.getByRole('form', { name: 'WhatsApp Business' });
  await form.getByLabel(/ID del número/).fill(`1090${unique()}`);
  await form.getByLabel('Número visible').fill('987 654 321');
  const card = page.locator('.MuiCard-root', { has: form });
  await card.getByRole('button', { name: 'Guardar' }).click();
  await expect(card.getByText('Conectado')).toBeVisible();
  await expect(form.getByLabel('Número visible')).toHaveValue('56987654321');
  await expect(page.getByRole('textbox', { name: 'URL de devolución de llamada de WhatsApp' })).toHaveValue(/\/api\/webhooks\/whatsapp$/);

  await card.getByRole('button', { name: 'Desconectar' }).click();
  await page.getByRole('dialog', { name: 'Advertencia' }).getByRole('button', { name: 'Aceptar' }).click();
  await expect(card.getByText('Sin conectar')).toBeVisible();
});

test('/dias-frecuencia: a customer opens the link without signing in and saves a choice', async ({ request, browser }) => {
  const login = await request.post('/api/login', { data: accounts.demoAdmin });
  const { token, user } = (await login.json()) as { token: string; user: { companyId: string } };
  const headers = { authorization: `Bearer ${token}`, 'x-company-id': user.companyId };
  const list = await request.get('/api/clean-leads?limit=1', { headers });
  const cleanLeadId = ((await list.json()) as { payload: Array<{ _id: string }> }).payload[0]._id;
  const link = await request.post(`/api/clean-leads/${cleanLeadId}/frequency-link`, { headers });
  const { url } = (await link.json()) as { url: string };

  const customer = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const phone = await customer.newPage();
  await phone.goto(new URL(url).pathname);
  await expect(phone.getByRole('heading', { name: '¿Cada cuánto quieres recibir mensajes?' })).toBeVisible();
  await phone.getByText('Cada 15 días').click();
  await phone.getByRole('button', { name: 'Guardar preferencia' }).click();
  await expect(phone.getByRole('status')).toHaveText('Preferencia guardada');
  // one character of the signed token changed (always to another one) makes it invalid
  const signed = new URL(url).pathname.split('/').pop() ?? '';
  const tampered = `${signed.slice(0, 10)}${signed[10] === 'A' ? 'B' : 'A'}${signed.slice(11)}`;
  await phone.goto(`/dias-frecuencia?t=${tampered}`);
  await expect(phone.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await customer.close();
});
