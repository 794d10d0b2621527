import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as imaginaScreen } from './imagina-template-messages-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { insertAt } from './imagina-fields';

vi.setConfig({ testTimeout: 30_000 });

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const approved = { _id: id(1), name: 'bienvenida_cliente', language: 'es_PE', category: 'MARKETING', body: 'Hola {{nombre}}', status: 'approved', createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z' };
const draft = { ...approved, _id: id(2), name: 'promo_borrador', status: 'draft' };
const waTemplate = (name: string, language: string) => ({
  _id: `${name}-${language}`,
  businessAccountId: 'waba',
  name,
  language,
  category: 'MARKETING',
  status: 'APPROVED',
  body: 'Hola {{1}}',
  bodyExamples: ['María'],
  buttons: [],
  variableFields: ['nombre'],
  sendable: true,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
});

function serve() {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { messaging: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/imagina_template_messages') return { status: 200, body: pageOf([approved, draft]) };
    if (call.method === 'GET' && call.path === '/leads') return { status: 200, body: pageOf([{ _id: id(9), name: 'Rosa Quispe', telefono: '51987000001', email: 'rosa@correo.pe' }]) };
    if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: { ...pageOf([waTemplate('promo_fin_de_mes', 'es_PE'), waTemplate('welcome', 'en')]), line: { sandbox: true } } };
    if (call.method === 'POST' && call.path === '/imagina_template_messages') return { status: 201, body: { ...(call.body as object), _id: id(3), createdAt: '2026-11-26T00:00:00Z', updatedAt: '2026-11-26T00:00:00Z' } };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('Imagina templates', () => {
  it('insertAt puts the variable at the cursor, replacing a selection', () => {
    expect(insertAt('Hola , gracias', 5, 5, '{{nombre}}')).toEqual({ text: 'Hola {{nombre}}, gracias', cursor: 15 });
    expect(insertAt('Hola X', 5, 6, '{{nombre}}')).toEqual({ text: 'Hola {{nombre}}', cursor: 15 });
    expect(insertAt('Hola ', null, null, '{{empresa}}')).toEqual({ text: 'Hola {{empresa}}', cursor: 16 });
  });

  it('the list says what they are and offers «Enviar» on approved ones only', async () => {
    serve();
    renderApp(<ResourceListPage config={imaginaScreen} />, { route: '/imagina_mensajes_de_plantilla' });
    expect(await screen.findByText(/Una plantilla Imagina es tu propio mensaje/)).toBeTruthy();
    const send = await screen.findByRole('link', { name: 'Enviar: bienvenida_cliente' });
    expect(send.getAttribute('href')).toBe(`/marketing/massive-messages?imagina=${id(1)}`);
    expect((screen.getByRole('button', { name: 'Enviar: promo_borrador' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('the form inserts each variable at the cursor, previews it with a lead’s values, and links an approved template of its language', async () => {
    const { calls } = serve();
    renderApp(<ResourceListPage config={imaginaScreen} />, { route: '/imagina_mensajes_de_plantilla' });
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva plantilla' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nombre/ }), 'saludo_clientes');
    const body = within(dialog).getByRole('textbox', { name: /Mensaje/ }) as HTMLTextAreaElement;
    await userEvent.type(body, 'Hola , te escribe ');
    // the cursor after «Hola »: the variable goes there
    body.setSelectionRange(5, 5);
    await userEvent.click(within(dialog).getByRole('button', { name: /\{\{nombre\}\}/ }));
    await waitFor(() => expect(body.value).toBe('Hola {{nombre}}, te escribe '));
    body.setSelectionRange(body.value.length, body.value.length);
    await userEvent.click(within(dialog).getByRole('button', { name: /\{\{empresa\}\}/ }));
    await waitFor(() => expect(body.value).toBe('Hola {{nombre}}, te escribe {{empresa}}'));

    // the preview with a real lead's values
    const preview = within(dialog).getByRole('figure', { name: 'Vista previa del mensaje' });
    await waitFor(() => expect(preview.querySelector('[data-variable="nombre"]')?.textContent).toBe('Rosa Quispe'));
    expect(within(preview).getByText(/Con los datos de Rosa Quispe/)).toBeTruthy();
    await userEvent.click(within(preview).getByRole('button', { name: 'Ver con datos de ejemplo' }));
    expect(preview.querySelector('[data-variable="nombre"]')?.textContent).toBe('María Quispe');

    // only the line's approved templates in the chosen language (es_PE by default)
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Plantilla de WhatsApp/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'promo_fin_de_mes' })).toBeTruthy();
    expect(within(listbox).queryByRole('option', { name: 'welcome' })).toBeNull();
    await userEvent.click(within(listbox).getByRole('option', { name: 'promo_fin_de_mes' }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/imagina_template_messages')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      name: 'saludo_clientes',
      language: 'es_PE',
      category: 'MARKETING',
      body: 'Hola {{nombre}}, te escribe {{empresa}}',
      whatsappTemplate: 'promo_fin_de_mes',
      status: 'draft',
    });
  });
});
