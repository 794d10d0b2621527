import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { accounts, customerWrites, expect, signIn, test } from './helpers';

// an upload, a chat opened and a send: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/** A small PNG of one colour: unique bytes, so Drive keeps it as a new file. */
function png(rgb: [number, number, number], size = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const row = Buffer.concat([Buffer.from([0]), Buffer.concat(Array.from({ length: size }, () => Buffer.from(rgb)))]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${page.viewportSize()?.width ?? 0}-${name}.png`) });
}

/**
 * Drive (issue 15, decision 0056): an image uploaded in /drive is listed with its thumbnail,
 * then sent «Desde Drive» in a WhatsApp chat, where the thread shows it from its public address.
 */
test('an image uploaded to Drive is sent from the chat «Desde Drive»', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const name = `Oferta e2e ${stamp}.png`;
  const customer = { from: `5198${String(Date.now()).slice(-7)}`, name: `Cliente Drive ${stamp}` };
  await signIn(page, accounts.demoAdmin);

  // the upload: the file's progress, then the card with its thumbnail
  await page.goto('/drive');
  await expect(page.getByRole('heading', { name: 'Drive', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Productos \(\d+\)$/ })).toBeVisible();
  await page.getByLabel('Archivos para subir').setInputFiles({ name, mimeType: 'image/png', buffer: png([40, 21, 108]) });
  await expect(page.getByText(`«${name}» subido a Drive`)).toBeVisible();
  const card = page.getByRole('listitem', { name });
  await expect(card).toBeVisible();
  await expect(card.getByText(/Imagen · /)).toBeVisible();
  await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
  await shot(page, 'drive');

  // a customer writes: the chat's 24-hour window is open
  await customerWrites(request, { ...customer, text: 'Hola, ¿tienen ofertas esta semana?' });
  await page.goto('/chat');
  const item = page.getByTestId('chat-item').filter({ hasText: customer.name });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page.getByTestId('thread-title')).toHaveText(customer.name);

  await page.getByRole('button', { name: 'Adjuntar', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Desde Drive' }).click();
  const picker = page.getByRole('dialog', { name: 'Enviar desde Drive' });
  await picker.getByRole('textbox', { name: 'Buscar en Drive' }).fill(`e2e ${stamp}`);
  await picker.getByRole('option', { name }).click();
  await picker.getByRole('textbox', { name: 'Texto (opcional)' }).fill('La oferta de hoy');
  await shot(page, 'drive-picker');
  await picker.getByRole('button', { name: 'Enviar' }).click();
  await expect(picker).toBeHidden();

  // the thread shows the image from Drive's public address, sent
  const thread = page.getByRole('log', { name: 'Mensajes' });
  const sent = thread.getByTestId('message').filter({ has: page.locator('img[alt="La oferta de hoy"]') });
  await expect(sent).toHaveCount(1);
  await expect(sent).toHaveAttribute('data-direction', 'out');
  await expect(sent.locator('img')).toHaveAttribute('src', new RegExp(`/api/drive/files/[A-Za-z0-9_-]+/${encodeURIComponent(name).replace(/[()]/g, '\\$&')}$`));
  await expect.poll(() => sent.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
  await expect(sent.getByTestId('message-status')).toHaveAttribute('data-status', /^(sent|delivered|read)$/);
  await shot(page, 'drive-sent');
});
