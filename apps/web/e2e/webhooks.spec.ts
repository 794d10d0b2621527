import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accounts, apiAs, expect, signIn, test } from './helpers';

/**
 * /configuracion/webhooks (issue 28, decision 0073) end to end: the owner subscribes an
 * integrator's receiver (on this machine's loopback) to new leads on the screen, copies the
 * signing secret shown once; a lead made in the product reaches the receiver signed with it, and
 * the subscription's deliveries show it arrived. At a desktop width and on a phone.
 */
for (const [width, height] of [
  [1280, 860],
  [375, 812],
] as const) {
  test(`a subscription made on the screen receives a signed new lead, and shows the delivery (${width} px)`, async ({ page }) => {
    const got: Array<{ headers: IncomingHttpHeaders; raw: string }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('recibido');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${width}`;
    try {
      await page.setViewportSize({ width, height });
      await signIn(page, accounts.demoAdmin);
      await page.goto('/configuracion/webhooks');
      await expect(page.getByTestId('webhook-subscription').filter({ hasText: 'erp.ejemplo.pe' })).toContainText('Pausada');

      await page.getByRole('button', { name: 'Nueva suscripción' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Dirección (URL)').fill(url);
      await dialog.getByLabel(/Se creó un lead/).check();
      await dialog.getByRole('button', { name: 'Crear suscripción' }).click();
      const secret = await page.getByTestId('secret-once').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Listo, ya lo copié' }).click();

      const lead = await apiAs<{ _id: string }>(page, '/leads', { method: 'POST', body: { name: `Webhook ${width}`, platform: 'web', status: 'sin-asignar' } });
      await expect.poll(() => got.filter((g) => g.raw.includes(lead._id)).length, { timeout: 15_000 }).toBe(1);
      const [delivery] = got.filter((g) => g.raw.includes(lead._id));
      const { t, v1 } = Object.fromEntries(String(delivery.headers['mostrador-signature']).split(',').map((p) => p.split('=')));
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivery.raw}`).digest('hex'));
      expect(JSON.parse(delivery.raw)).toMatchObject({ type: 'lead.created', data: { leadId: lead._id } });

      const card = page.getByTestId('webhook-subscription').filter({ hasText: url });
      await page.reload();
      await card.getByRole('button', { name: 'Entregas' }).click();
      const row = card.getByTestId('webhook-delivery').first();
      await expect(row).toContainText('Entregada');
      await expect(row).toContainText('Se creó un lead');
      await expect(row).toContainText('«recibido»');
      const box = await card.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);

      await card.getByRole('button', { name: 'Eliminar' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
      await expect(page.getByTestId('webhook-subscription').filter({ hasText: url })).toHaveCount(0);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
}
