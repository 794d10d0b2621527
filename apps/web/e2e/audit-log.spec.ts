import { accounts, expect, signIn, test } from './helpers';

/**
 * /auditoria (issue 28, decision 0072) end to end: a lead created and renamed through the API is
 * in the log with who did it and its fields before → after; the record's history is reachable by
 * the URL (`?entity=leads&entityId=…`), and the sign-in itself is there. At 1280 px and on a phone.
 */
for (const [width, height] of [
  [1280, 860],
  [375, 812],
] as const) {
  test(`the audit log shows a lead's history and the sign-in (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const login = await request.post('/api/login', { data: { email: accounts.demoAdmin.email, password: accounts.demoAdmin.password, corporation: accounts.demoAdmin.corporation } });
    const { token, user } = (await login.json()) as { token: string; user: { companyId: string } };
    const headers = { authorization: `Bearer ${token}`, 'x-company-id': user.companyId };
    const made = await request.post('/api/leads', { headers, data: { name: `Auditada ${width}`, platform: 'whatsapp', status: 'sin-asignar' } });
    expect(made.status()).toBe(201);
    const id = ((await made.json()) as { _id: string })._id;
    expect((await request.put(`/api/leads/${id}`, { headers, data: { name: `Auditada ${width} bis` } })).status()).toBe(200);

    await signIn(page, accounts.demoAdmin);
    await page.goto(`/auditoria?entity=leads&entityId=${id}`);
    await expect(page.getByRole('heading', { name: 'Auditoría' })).toBeVisible();
    await expect(page.getByText('Modificó · Leads')).toBeVisible();
    await expect(page.getByText('Creó · Leads')).toBeVisible();
    await expect(page.getByText(`Auditada ${width} → Auditada ${width} bis`)).toBeVisible();
    if (width < 600) await expect(page.getByRole('table')).toHaveCount(0);
    else await expect(page.getByRole('table', { name: 'Registro de auditoría' })).toBeVisible();
    await page.screenshot({ path: `test-results/auditoria-${width}.png`, fullPage: true });

    // the whole log: the sign-in is there
    await page.goto('/auditoria');
    await expect(page.getByText('Inició sesión · Usuarios').first()).toBeVisible();
    // nothing overflows the phone's width
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
