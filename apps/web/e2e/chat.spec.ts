import { randomInt } from 'node:crypto';
import { accounts, customerWrites, expect, signIn, test } from './helpers';

/**
 * The chat screen lives: a customer's WhatsApp message, delivered by Meta's webhook (signed
 * with the app secret, as Meta signs it), shows in the open inbox and the open chat without
 * a reload, and the answer shows in the thread with its delivery state.
 *
 * The demo company has a WhatsApp line answered by the sandbox provider (SEND_PROVIDER is
 * sandbox outside production; docs/OPERATIONS.md "Probar la demo"); outside production the
 * server verifies webhooks with the demo app secret.
 */

test('a customer message arrives live in the open chat and the answer shows with its status', async ({ page, request }) => {
  const from = `51987${String(randomInt(100000, 999999))}`;
  const name = `Cliente E2E ${from.slice(-4)}`;

  await signIn(page, accounts.demoAdmin);
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: 'Chat', level: 1 })).toBeVisible();
  await expect(page.getByTestId('chat-item').first()).toBeVisible();
  // A mark that a reload would wipe.
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });

  // A new customer writes: the conversation appears on top of the inbox, unread.
  await customerWrites(request, { from, name, text: 'Hola, ¿tienen delivery a Miraflores?' });
  const item = page.getByTestId('chat-item').filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(page.getByTestId('chat-item').first()).toContainText(name);
  await expect(item.getByTestId('unread-badge')).toHaveText('1');

  // Open it: the message is there and the chat is read.
  await item.click();
  await expect(page.getByTestId('thread-title')).toHaveText(name);
  const thread = page.getByRole('log', { name: 'Mensajes' });
  await expect(thread.getByText('Hola, ¿tienen delivery a Miraflores?')).toBeVisible();
  await expect(item.getByTestId('unread-badge')).toHaveCount(0);
  await expect(page.getByTestId('outside-window')).toHaveCount(0);

  // The customer writes again while the chat is open: it appears in the thread by itself.
  await customerWrites(request, { from, name, text: 'Es para hoy en la tarde' });
  await expect(thread.getByText('Es para hoy en la tarde')).toBeVisible();
  await expect(item.getByTestId('unread-badge')).toHaveCount(0);

  // A YouTube link shows as its embed (SPEC §5): the Content-Security-Policy lets the frame load (decision 0063)
  await customerWrites(request, { from, name, text: 'Como este: https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
  await expect(thread.locator('iframe[title="Video de YouTube"]')).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');

  // The user answers: Enter sends; the message shows once, with its delivery state.
  const composer = page.getByRole('textbox', { name: 'Escribe un mensaje' });
  await composer.fill('¡Hola! Sí, llegamos a Miraflores hoy mismo 🚚');
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
  const answer = thread.getByTestId('message').filter({ hasText: 'llegamos a Miraflores hoy mismo' });
  await expect(answer).toHaveCount(1);
  await expect(answer).toHaveAttribute('data-direction', 'out');
  await expect(answer.getByTestId('message-status')).toHaveAttribute('data-status', /^(sent|delivered|read)$/);
  await expect(item.getByTestId('chat-preview')).toHaveText('¡Hola! Sí, llegamos a Miraflores hoy mismo 🚚');

  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});
