import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { accounts, apiAs, customerWrites, expect, signIn, submitLogin, test } from './helpers';

// two browsers, a signed webhook and live updates per flow: room for a busy machine
test.describe.configure({ timeout: 90_000 });

/**
 * An agent's workspace (issue 11, decisions 0025 and 0026): the agent lands on the inbox and
 * "Mías" holds only their chats; the owner turns on round-robin assignment and a new customer's
 * chat gets an agent; the owner widens the agent role and the agent's menu changes.
 */

type Chat = { _id: string; contactName: string; lead?: { agenteId?: string } };

const listedIds = (page: Page) => page.getByTestId('chat-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-chat-id') ?? ''));

test('the agent lands on the inbox, on «Mías», which holds only their chats', async ({ page }) => {
  await submitLogin(page, accounts.demoAgent);
  await expect(page).toHaveURL(/\/chat$/);
  const mine = page.getByRole('tab', { name: /^Mías/ });
  await expect(mine).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('chat-item').first()).toBeVisible();

  const me = (await apiAs<{ agente: { _id: string; name: string } }>(page, '/assignment/me')).agente;
  expect(me.name).toBe('Carlos Agente');
  // every chat the server holds for this user, checked against what the tab lists
  const held = (await apiAs<{ payload: Chat[] }>(page, '/chats/get_chats?limit=100')).payload;
  const holder = new Map(held.map((c) => [c._id, c.lead?.agenteId]));
  const listed = await listedIds(page);
  expect(listed.length).toBeGreaterThan(3);
  for (const id of listed) expect(holder.get(id)).toBe(me._id);
  // the inbox opens on «Abiertos» (decision 0076): its tabs count open chats
  const counts = await apiAs<{ mine: number; unassigned: number; all: number }>(page, '/chats/counts?status=open');
  await expect(page.getByTestId('inbox-count-mine')).toHaveText(String(counts.mine));
  expect(counts.all).toBe(counts.mine + counts.unassigned);

  // Sin asignar: nobody's chats
  await page.getByRole('tab', { name: /^Sin asignar/ }).click();
  await expect(page.getByRole('tab', { name: /^Sin asignar/ })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => (await listedIds(page)).every((id) => holder.has(id) && holder.get(id) === undefined)).toBe(true);
  await expect(page.getByTestId('chat-item').first()).toBeVisible();

  // the menu: the inbox pinned on top; no marketing, settings or users
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(nav.getByRole('list', { name: 'Lo más usado' }).getByRole('link', { name: 'Chat' })).toBeVisible();
  for (const label of ['Campañas', 'Configuración', 'Usuarios', 'Roles y permisos']) {
    await nav.getByRole('searchbox', { name: 'Buscar pantalla' }).fill(label);
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveCount(0);
  }
  // the user menu: available, and away with one click
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  const availability = page.getByTestId('availability');
  await expect(availability).toContainText('Disponible');
  await availability.click();
  await expect(availability).toContainText('Ausente');
  await availability.click();
  await expect(availability).toContainText('Disponible');
});

test('the owner turns on round-robin assignment and a new customer’s chat gets an agent', async ({ page, request }) => {
  await signIn(page, accounts.demoAdmin);
  try {
    await page.goto('/agentes');
    const agents = page.getByRole('table');
    await expect(agents.getByRole('row', { name: /Carlos Agente/ })).toContainText('Carlos Agente');
    await page.getByRole('button', { name: 'Asignación automática' }).click();
    const dialog = page.getByRole('dialog', { name: 'Asignación automática' });
    await dialog.getByRole('switch', { name: 'Asignar automáticamente los chats nuevos sin agente' }).check();
    await dialog.getByRole('radio', { name: 'Entre todos los agentes disponibles' }).check();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByTestId('success-snackbar')).toContainText('Registro actualizado con éxito');
    await expect(page.getByRole('button', { name: 'Asignación automática: activada' })).toBeVisible();

    await page.goto('/chat');
    await expect(page.getByRole('tab', { name: /^Todas/ })).toHaveAttribute('aria-selected', 'true');
    const from = `51966${String(randomInt(100000, 999999))}`;
    const name = `Cliente Turno ${from.slice(-4)}`;
    await customerWrites(request, { from, name, text: 'Hola, quiero hacer un pedido' });
    // the new conversation arrives live, already with an agent: it is not in «Sin asignar»
    await expect(page.getByTestId('chat-item').filter({ hasText: name })).toBeVisible();
    const [chat] = (await apiAs<{ payload: Chat[] }>(page, `/chats/get_chats?filter=${encodeURIComponent(name)}`)).payload;
    const available = (await apiAs<{ payload: Array<{ _id: string; available?: boolean; active?: boolean }> }>(page, '/agentes?limit=100')).payload
      .filter((a) => a.available && a.active !== false)
      .map((a) => a._id);
    expect(available).toContain(chat.lead?.agenteId);
    await page.getByRole('tab', { name: /^Sin asignar/ }).click();
    await expect(page.getByRole('tab', { name: /^Sin asignar/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('chat-item').first()).toBeVisible();
    await expect(page.getByTestId('chat-item').filter({ hasText: name })).toHaveCount(0);
  } finally {
    await apiAs(page, '/assignment/settings', { method: 'PUT', body: { enabled: false } });
  }
});

test('the owner widens the agent role on the roles screen and the agent’s menu changes', async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  const agent = await (await browser.newContext()).newPage();
  await signIn(agent, accounts.demoAgent);
  const nav = agent.getByRole('navigation', { name: 'Menú principal' });
  await nav.getByRole('searchbox', { name: 'Buscar pantalla' }).fill('Campañas');
  await expect(nav.getByRole('link', { name: 'Campañas', exact: true })).toHaveCount(0);

  await signIn(owner, accounts.demoAdmin);
  const before = await apiAs<{ roles: Array<{ role: string; permissions: Record<string, string[]> }> }>(owner, '/roles');
  try {
    await owner.goto('/usuarios/roles');
    await expect(owner.getByRole('heading', { name: 'Roles y permisos', level: 1 })).toBeVisible();
    await owner.getByRole('tab', { name: 'Agente' }).click();
    const listMarketing = owner.getByRole('checkbox', { name: 'Marketing · Listar' });
    await expect(listMarketing).not.toBeChecked();
    await listMarketing.check();
    await owner.getByRole('checkbox', { name: 'Marketing · Ver', exact: true }).check();
    await owner.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(owner.getByTestId('success-snackbar')).toContainText('Registro actualizado con éxito');

    // the agent's next page load shows Marketing's screens, and the server lets them in
    await agent.reload();
    await nav.getByRole('searchbox', { name: 'Buscar pantalla' }).fill('Campañas');
    const campaigns = nav.getByRole('link', { name: 'Campañas', exact: true });
    await expect(campaigns).toHaveAttribute('href', '/marketing/campaigns');
    // open it as the link does (a click can land while the menu is drawn again with the new permissions)
    await agent.goto('/marketing/campaigns');
    await expect(agent.getByRole('heading', { name: 'Campañas', level: 1 })).toBeVisible();
    await expect(agent.getByRole('table')).toBeVisible();
  } finally {
    const agentRole = before.roles.find((r) => r.role === 'agent');
    await apiAs(owner, '/roles/agent', { method: 'PUT', body: { permissions: agentRole?.permissions } });
  }
  await agent.reload();
  await nav.getByRole('searchbox', { name: 'Buscar pantalla' }).fill('Campañas');
  await expect(nav.getByRole('link', { name: 'Campañas', exact: true })).toHaveCount(0);
});
