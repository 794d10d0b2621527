import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { accounts, expect, signIn, test } from './helpers';

// signed webhooks, a dialog and the inbox: room for a busy machine
test.describe.configure({ timeout: 60_000 });

/**
 * Facebook comments (issue 15, decision 0049): the demo's sandbox page (Demo Perú) receives
 * comments through the signed `feed` webhook. One its rule matches is answered privately by
 * Messenger at once; one no rule matches waits in /comentarios-sin-respuesta, where the owner
 * answers it privately. Both people then have a Messenger chat in /chat with the comment and
 * the reply.
 */
const DEMO_PAGE = '104857362819475';
const PACK_POST = `${DEMO_PAGE}_712345678901234`;
const DEMO_APP_SECRET = 'mostrador-demo-app-secret';

async function commentArrives(request: APIRequestContext, { name, message, post = PACK_POST }: { name: string; message: string; post?: string }) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const commentId = `${post.split('_')[1]}_${stamp}`;
  const body = JSON.stringify({
    object: 'page',
    entry: [
      {
        id: DEMO_PAGE,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'feed',
            value: {
              from: { id: `45${stamp}`, name },
              post: { id: post, permalink_url: `https://www.facebook.com/${DEMO_PAGE}/posts/${post.split('_')[1]}` },
              message,
              post_id: post,
              comment_id: commentId,
              created_time: Math.floor(Date.now() / 1000),
              item: 'comment',
              parent_id: post,
              verb: 'add',
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac('sha256', DEMO_APP_SECRET).update(body).digest('hex')}`;
  const response = await request.post('/api/webhooks/meta', { data: body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ received: 1, stored: 1 });
  return commentId;
}

async function apiOf(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: accounts.demoAdmin });
  const { token, user } = (await login.json()) as { token: string; user: { companyId: string } };
  const headers = { authorization: `Bearer ${token}`, 'x-company-id': user.companyId };
  return async <T>(url: string) => {
    const res = await request.get(`/api${url}`, { headers });
    expect(res.status(), url).toBe(200);
    return (await res.json()) as T;
  };
}

test('a comment no rule answers is answered privately from /comentarios-sin-respuesta and shows in /chat', async ({ page, request }) => {
  const name = `Milagros Vega ${Date.now().toString().slice(-4)}`;
  await commentArrives(request, { name, message: '¿Tienen la talla S en color crema?' });
  await signIn(page, accounts.demoAdmin);
  await page.goto('/comentarios-sin-respuesta');
  await expect(page.getByRole('heading', { name: 'Comentarios sin respuesta', level: 1 })).toBeVisible();
  const answer = page.getByRole('button', { name: `Responder a ${name}` });
  await expect(answer).toBeVisible({ timeout: 15_000 });
  await answer.click();
  const dialog = page.getByRole('dialog', { name: `Responder a ${name}` });
  await expect(dialog).toContainText('¿Tienen la talla S en color crema?');
  await dialog.getByRole('radio', { name: 'Privada (Messenger)' }).check();
  await dialog.getByRole('textbox', { name: 'Respuesta' }).fill('¡Hola! Sí, nos queda la talla S en crema. ¿Te la separo?');
  await dialog.getByRole('button', { name: 'Enviar por Messenger' }).click();
  // the screen says what happened, not the generic 'Registro actualizado con éxito'
  await expect(page.getByText('Respuesta enviada por Messenger')).toBeVisible();
  await expect(page.getByText('Registro actualizado con éxito')).toHaveCount(0);
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `Responder a ${name}` })).toHaveCount(0);

  // the person is now a Messenger chat with the comment and the reply
  const get = await apiOf(request);
  const chats = (await get<{ payload: Array<{ _id: string; contactName: string; platform: string }> }>('/chats/get_chats?limit=100&platform=facebook')).payload;
  const chat = chats.find((c) => c.contactName === name);
  expect(chat, 'el chat de Messenger de quien comentó').toBeTruthy();
  await page.goto(`/chat?chatId=${chat?._id}`);
  await expect(page.getByTestId('thread-title')).toContainText(name);
  const thread = page.getByTestId('thread-scroller');
  await expect(thread.getByText('Comentó en Facebook: «¿Tienen la talla S en color crema?»')).toBeVisible();
  await expect(thread.getByText('¡Hola! Sí, nos queda la talla S en crema. ¿Te la separo?')).toBeVisible();
});

test('a comment a rule matches is answered by Messenger at once: on the rule’s page and in /chat', async ({ page, request }) => {
  const name = `Renato Díaz ${Date.now().toString().slice(-4)}`;
  await commentArrives(request, { name, message: 'PRECIO del pack porfa' });
  const get = await apiOf(request);
  const rules = (await get<{ payload: Array<{ _id: string; name: string }> }>('/comment-rules?limit=50')).payload;
  const rule = rules.find((r) => r.name === 'Precio del pack familiar');
  expect(rule, 'la regla del demo').toBeTruthy();
  await signIn(page, accounts.demoAdmin);
  await page.goto('/comment-to-msn');
  await expect(page.getByRole('heading', { name: 'Comentarios a Messenger', level: 1 })).toBeVisible();
  await page.goto(`/comment-to-msn/${rule?._id}`);
  await expect(page.getByRole('heading', { name: 'Precio del pack familiar', level: 1 })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Enviada', { timeout: 15_000 });
  await row.getByRole('link', { name: 'Abrir chat' }).click();
  await expect(page).toHaveURL(/\/chat\?chatId=/);
  await expect(page.getByTestId('thread-title')).toContainText(name);
  const thread = page.getByTestId('thread-scroller');
  await expect(thread.getByText('Comentó en Facebook: «PRECIO del pack porfa»')).toBeVisible();
  await expect(thread.getByText(/El pack familiar está a S\/ 49\.90/)).toBeVisible();
});
