import type { ChatProductItem } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telegramDefaults } from '../src/integrations/telegram/client.js';
import { parseTelegramHtml } from '../src/integrations/telegram/fake.js';
import { productCaption, sendTelegramProducts, TELEGRAM_PRODUCTS_MAX, telegramProductMessages } from '../src/integrations/telegram/products.js';
import { type FakeTelegramServer, startFakeTelegram } from './fakes/telegram.js';

/**
 * Products on Telegram (decision 0091), against the local fake of the Bot API: one sendPhoto per
 * product with an HTML caption (escaped, at most 1024 characters after parsing) and an inline
 * «Ver en el catálogo» button, sendMessage for a product without a picture, the agent's text
 * first, at most 10 products, a picture Telegram cannot fetch sent as text.
 */
const TOKEN = '7000000001:AAProductosDePruebaTelegram0091xyz';
const CUSTOMER = 580000091;
const SHOP = 'https://tienda.mostrador.app/catalogo-digital/3f1c2b9a-0000-4000-8000-000000000091';

let fake: FakeTelegramServer;
const apiRoot = telegramDefaults.apiRoot;

const item = (i: number, extra: Partial<ChatProductItem> = {}): ChatProductItem => ({
  id: `p${i}`,
  sku: `SKU-${i}`,
  name: `Producto ${i}`,
  price: 10 + i,
  currency: 'PEN',
  image: `https://cdn.mostrador.app/productos/p${i}.png`,
  stock: 5,
  link: SHOP,
  ...extra,
});
const visible = (html: string) => {
  const parsed = parseTelegramHtml(html);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.text;
};

beforeAll(async () => {
  fake = await startFakeTelegram(TOKEN, [{ id: CUSTOMER, title: 'Rosa Quispe', type: 'private' }]);
  telegramDefaults.apiRoot = fake.url;
});
afterAll(async () => {
  telegramDefaults.apiRoot = apiRoot;
  await fake?.close();
});

describe('a product’s caption', () => {
  it('names the product, the variant chosen, the price in the company’s currency, «Sin stock» and a short description', () => {
    const html = productCaption(item(1, { name: 'Polo básico', variant: 'Talla M · Rojo', variantSku: 'POLO-M-1', price: 25, stock: 0, description: 'Algodón peruano' }));
    expect(visible(html).replace(/\s/g, ' ')).toBe('Polo básico Talla M · Rojo S/ 25.00 · Sin stock  Algodón peruano');
    expect(html.startsWith('<b>Polo básico</b>\nTalla M · Rojo\n<b>')).toBe(true);
    // «N variantes» (no variant chosen) is not said; a Chilean price has no decimals (the es-PE format the cards use)
    expect(visible(productCaption(item(2, { variant: '3 variantes', price: 4990, currency: 'CLP' })))).toMatch(/^Producto 2\nCLP\s4,990$/);
  });

  it('escapes what Telegram’s HTML would take as markup', () => {
    const html = productCaption(item(3, { name: 'Salsa <picante> & "dulce"', description: 'Tags <b>no</b> & <script>' }));
    expect(html).toContain('<b>Salsa &lt;picante&gt; &amp; "dulce"</b>');
    expect(visible(html)).toContain('Salsa <picante> & "dulce"');
    expect(visible(html)).toContain('Tags <b>no</b> & <script>');
  });

  it('fits 1024 characters after parsing however long the description, entities and emojis', () => {
    const html = productCaption(item(4, { name: 'Ñ'.repeat(300), description: '<&>🙂'.repeat(600) }));
    expect([...visible(html)].length).toBeLessThanOrEqual(1024);
    expect(visible(html).endsWith('…')).toBe(true);
    expect(html.length).toBeGreaterThan(1024); // the escaped HTML is longer; Telegram counts the parsed text
  });
});

describe('products sent to a Telegram chat', () => {
  it('goes as the agent’s text, then one photo per product with its caption and the catalogue button; without a picture, a text', async () => {
    const before = fake.account.sent.length;
    const ids = await sendTelegramProducts(TOKEN, String(CUSTOMER), { items: [item(1), item(2, { image: undefined, description: 'Sin foto aún' })] }, 'Te comparto <estos>', 'https://tienda.mostrador.app');
    const sent = fake.account.sent.slice(before);
    expect(ids).toEqual(sent.map((s) => s.messageId));
    expect(sent.map((s) => s.method)).toEqual(['sendMessage', 'sendPhoto', 'sendMessage']);
    expect(sent[0]).toMatchObject({ chatId: CUSTOMER, text: 'Te comparto &lt;estos&gt;', parseMode: 'HTML' });
    expect(sent[0].buttons).toBeUndefined();
    expect(sent[1]).toMatchObject({ media: 'https://cdn.mostrador.app/productos/p1.png', parseMode: 'HTML', buttons: [[{ text: 'Ver en el catálogo', url: SHOP }]] });
    expect(visible(sent[1].text ?? '')).toMatch(/^Producto 1\nS\/\s11\.00$/);
    expect(sent[2]).toMatchObject({ buttons: [[{ text: 'Ver en el catálogo', url: SHOP }]] });
    expect(sent[2].media).toBeUndefined();
    expect(visible(sent[2].text ?? '')).toContain('Sin foto aún');
  });

  it('a picture path of ours is made absolute; a local catalogue link gets no button (Telegram refuses it)', () => {
    const [m] = telegramProductMessages({ items: [item(5, { image: '/api/product-images/polo-cc0000.svg', link: 'http://localhost:3000/catalogo-digital/1' })] }, undefined, 'https://tienda.mostrador.app/');
    expect(m).toMatchObject({ method: 'sendPhoto', photo: 'https://tienda.mostrador.app/api/product-images/polo-cc0000.svg' });
    expect(m.url).toBeUndefined();
  });

  it('sends at most 10 products', () => {
    const messages = telegramProductMessages({ items: Array.from({ length: 12 }, (_, i) => item(i)) }, undefined, 'https://tienda.mostrador.app');
    expect(TELEGRAM_PRODUCTS_MAX).toBe(10);
    expect(messages).toHaveLength(10);
  });

  it('a photo Telegram cannot download goes as text with the same caption and button', async () => {
    const before = fake.account.sent.length;
    await sendTelegramProducts(TOKEN, String(CUSTOMER), { items: [item(6, { image: 'ftp-no-es-http' }), item(7, { image: 'https://cdn.mostrador.app/p7.png' })] }, undefined, 'https://tienda.mostrador.app');
    const sent = fake.account.sent.slice(before);
    // not http(s): never offered to Telegram as a photo
    expect(sent.map((s) => s.method)).toEqual(['sendMessage', 'sendPhoto']);
    expect(sent[0].buttons?.[0]?.[0]?.url).toBe(SHOP);
  });

  it('the fake refuses what Telegram would: a long caption, broken HTML, a local button', async () => {
    const call = (method: string, body: object) => fetch(`${fake.url}/bot${TOKEN}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: CUSTOMER, ...body }) }).then((r) => r.json() as Promise<{ ok: boolean; description?: string }>);
    expect(await call('sendPhoto', { photo: 'https://cdn.mostrador.app/p.png', caption: 'x'.repeat(1025) })).toMatchObject({ ok: false, description: 'Bad Request: message caption is too long' });
    expect((await call('sendMessage', { text: '<b>sin cerrar', parse_mode: 'HTML' })).description).toContain("can't parse entities");
    expect((await call('sendMessage', { text: 'a', reply_markup: { inline_keyboard: [[{ text: 'Ver', url: 'http://localhost:3000/x' }]] } })).description).toBe('Bad Request: BUTTON_URL_INVALID');
  });

  it('a refusal says why in Spanish; one midway also says how many messages went', async () => {
    fake.account.kicked.add(CUSTOMER);
    await expect(sendTelegramProducts(TOKEN, String(CUSTOMER), { items: [item(8)] }, undefined, 'https://tienda.mostrador.app')).rejects.toMatchObject({ kind: 'forbidden', msg: expect.stringContaining('expulsado') });
    fake.account.kicked.delete(CUSTOMER);

    // the customer blocks the bot after the first product
    const handle = fake.account.handle;
    let calls = 0;
    fake.account.handle = (req) => (++calls === 2 ? { status: 403, body: JSON.stringify({ ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' }) } : handle(req));
    try {
      await expect(sendTelegramProducts(TOKEN, String(CUSTOMER), { items: [item(8), item(9), item(10)] }, undefined, 'https://tienda.mostrador.app')).rejects.toMatchObject({
        msg: expect.stringMatching(/^Se enviaron 1 de 3 mensajes\. /),
      });
    } finally {
      fake.account.handle = handle;
    }
  });
});
