import type { Channel } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { WhatsappPage } from './whatsapp-page';

const at = '2025-03-14T15:30:00.000Z';
const whatsapp: Channel = {
  _id: 'c1',
  kind: 'whatsapp',
  providerId: '109000000000001',
  businessAccountId: '102290129340398',
  displayPhoneNumber: '51987654321',
  accessTokenSet: true,
  accessTokenLast4: '7Q2x',
  createdAt: at,
  updatedAt: at,
};
const messenger: Channel = { _id: 'c2', kind: 'messenger', providerId: '201000000000001', name: 'Bodega Lucho', accessTokenSet: true, accessTokenLast4: 'AbCd', createdAt: at, updatedAt: at };
const instagram: Channel = { _id: 'c3', kind: 'instagram', providerId: '178400000000001', name: 'Bodega Lucho', pageId: '201000000000001', accessTokenSet: true, accessTokenLast4: 'AbCd', createdAt: at, updatedAt: at };
const webhooks = {
  whatsappUrl: 'https://mostrador.example.pe/api/webhooks/whatsapp',
  metaUrl: 'https://mostrador.example.pe/api/webhooks/meta',
  configured: true,
  demoVerifyToken: 'mostrador-demo-verify-token',
};
const everything = { integrations: ['list', 'read', 'create', 'update', 'delete'] };

/** A server with the company's channels; PUT/DELETE change them, `answer` overrides a write. */
function serve(initial: Channel[], { permissions = everything as object, answer }: { permissions?: object; answer?: (call: FakeCall) => { status: number; body: unknown } | undefined } = {}) {
  let channels = [...initial];
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/channels') return { status: 200, body: { payload: channels, webhooks } };
    const override = answer?.(call);
    if (override) return override;
    const stamp = new Date(Date.now() + channels.length * 1000).toISOString();
    if (call.method === 'PUT' && call.path === '/channels/whatsapp') {
      const body = call.body as Record<string, string>;
      const saved: Channel = { ...whatsapp, providerId: body.phoneNumberId, displayPhoneNumber: body.displayPhoneNumber, updatedAt: stamp };
      channels = [saved, ...channels.filter((c) => c.kind !== 'whatsapp')];
      return { status: 200, body: saved };
    }
    if (call.method === 'PUT' && call.path === '/channels/meta') {
      const body = call.body as { instagramAccountId?: string | null };
      if (body.instagramAccountId === null) channels = channels.filter((c) => c.kind !== 'instagram');
      channels = channels.map((c) => (c.kind === 'messenger' ? { ...c, updatedAt: stamp } : c));
      return { status: 200, body: { payload: channels.filter((c) => c.kind !== 'whatsapp') } };
    }
    if (call.method === 'DELETE') {
      const kind = call.path.split('/').pop();
      channels = channels.filter((c) => c.kind !== kind);
      return { status: 200, body: { status: 200, kind } };
    }
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

const whatsappForm = () => screen.findByRole('form', { name: 'WhatsApp Business' });

describe('WhatsappPage', () => {
  it('shows the line, its token only as its last four characters, the page with Instagram and the webhook URLs', async () => {
    serve([whatsapp, messenger, instagram]);
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    const form = await whatsappForm();
    expect((within(form).getByLabelText(/ID del número/) as HTMLInputElement).value).toBe('109000000000001');
    expect((within(form).getByLabelText('Número visible') as HTMLInputElement).value).toBe('51987654321');
    expect(within(form).getByTestId('token-status').textContent).toBe('Configurado ····7Q2x');
    expect(document.body.textContent).not.toContain('EAAG');
    const meta = screen.getByRole('form', { name: 'Messenger e Instagram' });
    expect((within(meta).getByLabelText('ID de la cuenta de Instagram') as HTMLInputElement).value).toBe('178400000000001');
    expect((screen.getByLabelText('URL de devolución de llamada de WhatsApp') as HTMLInputElement).value).toBe(webhooks.whatsappUrl);
    expect((screen.getByLabelText('URL de devolución de llamada de Messenger e Instagram') as HTMLInputElement).value).toBe(webhooks.metaUrl);
    expect(screen.getByText('mostrador-demo-verify-token')).toBeTruthy();
  });

  it('validates with the contract schema in Spanish before sending', async () => {
    const { calls } = serve([]);
    const user = userEvent.setup();
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    const form = await whatsappForm();
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    expect(await within(form).findByText('Este campo es requerido')).toBeTruthy();
    await user.type(within(form).getByLabelText(/ID del número/), 'abc');
    await user.type(within(form).getByLabelText('Token de acceso'), 'corto');
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    expect(await within(form).findByText('Solo dígitos: el identificador que muestra Meta')).toBeTruthy();
    expect(within(form).getByText('El token de acceso parece incompleto')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('saves the line with a normalised number, keeping the stored token unless replaced', async () => {
    const { calls } = serve([whatsapp]);
    const user = userEvent.setup();
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    let form = await whatsappForm();
    const number = within(form).getByLabelText('Número visible');
    await user.clear(number);
    await user.type(number, '987 111 222');
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      phoneNumberId: '109000000000001',
      businessAccountId: '102290129340398',
      displayPhoneNumber: '51987111222',
    });

    form = await whatsappForm();
    await user.click(await within(form).findByRole('button', { name: 'Reemplazar token' }));
    await user.type(within(form).getByLabelText('Nuevo token de acceso'), 'EAAGm0PX4ZCpsBAJ9ejemplotokennuevo9Zz1');
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1].body).toMatchObject({ accessToken: 'EAAGm0PX4ZCpsBAJ9ejemplotokennuevo9Zz1' });
  });

  it("shows the server's conflict under the field", async () => {
    serve([], {
      answer: (call) =>
        call.method === 'PUT'
          ? {
              status: 409,
              body: { errors: { code: 'CONFLICT', msg: 'Ese número de WhatsApp (phone number id) ya está conectado a otra compañía', details: [{ path: 'phoneNumberId', msg: 'Ya está en uso' }] } },
            }
          : undefined,
    });
    const user = userEvent.setup();
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    const form = await whatsappForm();
    await user.type(within(form).getByLabelText(/ID del número/), '109000000000009');
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    expect(await within(form).findByText('Ya está en uso')).toBeTruthy();
  });

  it('disconnects after Aceptar in the Advertencia confirmation; a cleared Instagram id unlinks Instagram', async () => {
    const { calls } = serve([whatsapp, messenger, instagram]);
    const user = userEvent.setup();
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    const form = await whatsappForm();
    await user.click(within(form.parentElement as HTMLElement).getByRole('button', { name: 'Desconectar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advertencia' });
    await user.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/channels/whatsapp')).toBe(true));
    expect(await screen.findByText('Sin conectar')).toBeTruthy();
    expect(((await whatsappForm()).querySelector('input[name="phoneNumberId"]') as HTMLInputElement).value).toBe('');

    const meta = screen.getByRole('form', { name: 'Messenger e Instagram' });
    await user.clear(within(meta).getByLabelText('ID de la cuenta de Instagram'));
    await user.click(within(meta.parentElement as HTMLElement).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/channels/meta')).toBe(true));
    expect(calls.find((c) => c.path === '/channels/meta')?.body).toEqual({ pageId: '201000000000001', pageName: 'Bodega Lucho', instagramAccountId: null });
  });

  it('is read-only for a role that may only list integrations', async () => {
    serve([whatsapp], { permissions: { integrations: ['list', 'read'] } });
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    const form = await whatsappForm();
    await waitFor(() => expect((within(form).getByLabelText(/ID del número/) as HTMLInputElement).disabled).toBe(true));
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Desconectar' })).toBeNull();
    expect(within(form).queryByRole('button', { name: 'Reemplazar token' })).toBeNull();
  });

  it('«Probar conexión» asks Graph for the stored page token and says what to fix, part by part', async () => {
    const user = userEvent.setup();
    const answers = [
      { ok: true, msg: 'Conexión correcta con la página «Bodega Lucho»: el token es suyo y puede leer y responder sus mensajes', page: { id: '201000000000001', name: 'Bodega Lucho' } },
      { ok: false, problem: 'token', msg: 'El token de la página venció: genera uno nuevo en Meta (Business Suite › Configuración › Usuarios del sistema) y guárdalo aquí (código 190/463)' },
    ];
    const { calls } = serve([whatsapp, messenger], { answer: (call) => (call.method === 'POST' && call.path === '/channels/meta/test' ? { status: 200, body: answers.shift() } : undefined) });
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    await screen.findByRole('form', { name: 'Messenger e Instagram' });
    await user.click(screen.getByRole('button', { name: 'Probar conexión' }));
    const dialog = await screen.findByRole('dialog', { name: 'Probar conexión · Bodega Lucho' });
    expect((await within(dialog).findByTestId('page-test-result')).textContent).toContain('Conexión correcta con la página «Bodega Lucho»');
    expect(within(dialog).getByText('Es el token de «Bodega Lucho»')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/channels/meta/test')).toHaveLength(1);

    await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' })[0]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Probar conexión' }));
    const again = await screen.findByRole('dialog');
    expect((await within(again).findByTestId('page-test-result')).textContent).toContain('El token de la página venció');
    expect(within(again).getByText('Venció o no es válido')).toBeTruthy();
    expect(within(again).getByText('Pega el token correcto en «Token de acceso», guarda y vuelve a probar.')).toBeTruthy();
  });

  it('offers no «Probar conexión» before the page has a token', async () => {
    serve([whatsapp]);
    renderApp(<WhatsappPage />, { route: '/whatsapp' });
    await screen.findByRole('form', { name: 'Messenger e Instagram' });
    expect(screen.queryByRole('button', { name: 'Probar conexión' })).toBeNull();
  });
});
