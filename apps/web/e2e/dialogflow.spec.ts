import { accounts, expect, signIn, test } from './helpers';

/**
 * Dialogflow bots (issue 15, decision 0053) on the demo: /dialogflow lists the bots with whether
 * they take chats and their connection; «Probar conexión» of the sandbox bot shows the intent a
 * text matches and the answer, and the Messenger bot's broken key shows its Spanish reason, which
 * stays on the row. The inbox marks the chat the bot handed to a person, and the thread labels the
 * bot's messages.
 */
test('the bots’ screen tests a connection, and the inbox shows the chat a bot handed over', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/dialogflow');
  await expect(page.getByRole('heading', { name: 'Bots', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: /Asistente WhatsApp/ });
  await expect(row.getByTestId('bot-state')).toContainText('Atiende chats');
  await expect(row.getByTestId('bot-state')).toContainText(/1 chat pasado a una persona/);

  await row.getByRole('button', { name: 'Probar conexión: Asistente WhatsApp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Probar conexión · Asistente WhatsApp' });
  await dialog.getByLabel('Texto de prueba').fill('¿A qué hora abren el domingo?');
  await dialog.getByRole('button', { name: 'Probar', exact: true }).click();
  await expect(dialog.getByTestId('bot-test-result')).toContainText('coincide con la intención «horarios»');
  await expect(dialog.getByText(/los domingos de 10:00 a 14:00/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();

  const messenger = page.getByRole('row', { name: /Bot Messenger/ });
  await messenger.getByRole('button', { name: 'Probar conexión: Bot Messenger' }).click();
  const bad = page.getByRole('dialog', { name: 'Probar conexión · Bot Messenger' });
  await bad.getByRole('button', { name: 'Probar', exact: true }).click();
  await expect(bad.getByTestId('bot-test-result')).toContainText('La clave privada de la cuenta de servicio no es válida');
  await bad.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(messenger.getByTestId('bot-state')).toContainText('Con error');

  await page.goto('/chat');
  // other flows bring new conversations to the top of the inbox: found by the inbox's search
  await page.getByRole('searchbox', { name: 'Buscar por nombre, teléfono o mensaje' }).fill('Jorge Salinas');
  const handed = page.getByTestId('chat-item').filter({ hasText: 'Jorge Salinas' });
  await expect(handed.getByTestId('chat-bot-marker')).toHaveText('Para una persona');
  await handed.click();
  const thread = page.getByRole('log', { name: 'Mensajes' });
  await expect(thread.getByTestId('bot-label').last()).toHaveText('Bot · Asistente WhatsApp · pasó el chat a una persona');
});
