import { type ChatState, chatStateReasons, type WhatsappTemplate } from '@mostrador/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { Composer } from '../chat/components/composer';
import { MessageBubble } from '../chat/components/message-bubble';
import { TemplatesPage } from './templates-page';

vi.setConfig({ testTimeout: 20_000 });

const at = '2026-11-25T12:00:00.000Z';
const template = (over: Partial<WhatsappTemplate>): WhatsappTemplate => ({
  _id: '00000000-0000-4000-8000-000000000001',
  businessAccountId: '102290129340398',
  providerId: '900000000000001',
  name: 'seguimiento_cotizacion',
  language: 'es_PE',
  category: 'UTILITY',
  status: 'APPROVED',
  header: { format: 'TEXT', text: 'Tu cotización' },
  body: 'Hola {{1}}, te escribimos de {{2}} por tu cotización. Llega a las {{3}}.',
  bodyExamples: ['María', 'Bodega Lucho', '15:00'],
  footer: 'Responde BAJA para no recibir más mensajes',
  buttons: [{ type: 'QUICK_REPLY', text: 'Sí, confirmar' }],
  variableFields: ['nombre', 'empresa', ''],
  sendable: true,
  createdAt: at,
  updatedAt: at,
  ...over,
});
const approved = template({});
const rejected = template({ _id: '00000000-0000-4000-8000-000000000002', name: 'oferta_relampago', category: 'MARKETING', status: 'REJECTED', reason: 'Contenido promocional en una categoría que no lo admite', body: '¡GANASTE! {{1}}', bodyExamples: ['María'], variableFields: ['nombre'], header: undefined, footer: undefined, buttons: [] });
const paused = template({ _id: '00000000-0000-4000-8000-000000000003', name: 'encuesta', status: 'PAUSED', body: '¿Nos calificas?', bodyExamples: [], variableFields: [], header: undefined, footer: undefined, buttons: [] });

const permissions = { status: 200, body: { role: 'admin', permissions: { messaging: ['list', 'read', 'create', 'update', 'delete'], integrations: ['list', 'update'] } } };
const listOf = (payload: WhatsappTemplate[]) => ({ payload, totalDocs: payload.length, totalPages: 1, page: 1, limit: 20, line: { businessAccountId: '102290129340398', displayPhoneNumber: '51987000000', sandbox: true } });

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/mensajes_de_plantilla', () => {
  it('lists each status in Spanish with the rejection reason, and previews the chosen template filled from a lead picked on the screen', async () => {
    const user = userEvent.setup();
    fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return permissions;
      if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: listOf([approved, rejected, paused]) };
      if (call.method === 'GET' && call.path === '/leads') return { status: 200, body: pageOf([{ _id: 'lead-1', name: 'Rosa Quispe', telefono: '51977300001' }]) };
      return undefined;
    });
    renderApp(<TemplatesPage />, { route: '/mensajes_de_plantilla' });
    const rows = await screen.findAllByTestId('template-row', undefined, { timeout: 10_000 });
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getByText('Aprobada')).toBeTruthy();
    expect(within(rows[1]).getByText('Rechazada')).toBeTruthy();
    expect(rows[1].textContent).toContain('Motivo del rechazo: Contenido promocional en una categoría que no lo admite');
    expect(within(rows[2]).getByText('Pausada')).toBeTruthy();

    // the first one is previewed with its examples, and says which lead field fills each variable
    const preview = screen.getByRole('figure', { name: 'Vista previa de seguimiento_cotizacion' });
    expect(preview.textContent).toContain('Hola María, te escribimos de Bodega Lucho');
    expect(screen.getByTestId('variable-map').textContent).toContain('{{1}} ← Nombre del lead');
    expect(screen.getByTestId('variable-map').textContent).toContain('{{3}} ← La escribe quien envía');

    // a real lead fills the mapped variables
    await user.type(screen.getByRole('combobox', { name: 'Completar con un lead' }), 'Rosa');
    await user.click(await screen.findByRole('option', { name: /Rosa Quispe/ }, { timeout: 10_000 }));
    await waitFor(() => expect(screen.getByRole('figure', { name: 'Vista previa de seguimiento_cotizacion' }).textContent).toContain('Hola Rosa Quispe,'));
    // the unmapped one keeps its example
    expect(screen.getByRole('figure', { name: 'Vista previa de seguimiento_cotizacion' }).textContent).toContain('Llega a las 15:00');

    await user.click(rows[1]);
    const panel = screen.getByTestId('template-panel');
    expect(panel.textContent).toContain('Motivo del rechazo: Contenido promocional en una categoría que no lo admite');
  });

  it('a new template is validated in Spanish as Meta would, previewed live, and sent to Meta', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return permissions;
      if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: listOf([]) };
      if (call.method === 'POST' && call.path === '/whatsapp-templates') return { status: 201, body: template({ ...(call.body as object), status: 'PENDING' }) };
      return undefined;
    });
    renderApp(<TemplatesPage />, { route: '/mensajes_de_plantilla' });
    expect((await screen.findByTestId('templates-empty', undefined, { timeout: 10_000 })).textContent).toContain('Esta línea aún no tiene plantillas');
    await user.click(screen.getByRole('button', { name: 'Nueva plantilla' }));
    const form = screen.getByRole('form', { name: 'Nueva plantilla de WhatsApp' });
    fireEvent.change(within(form).getByRole('textbox', { name: /Nombre/ }), { target: { value: 'Aviso Pedido' } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Texto del mensaje/ }), { target: { value: 'Hola {{1}}, tu pedido {{3}} salió.' } });
    await user.click(within(form).getByRole('button', { name: 'Enviar a Meta' }));
    expect(form.textContent).toContain('Solo letras minúsculas sin tildes, números y guion bajo');
    expect(form.textContent).toContain('Las variables van numeradas desde {{1}} sin saltos: falta {{2}}');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByRole('textbox', { name: /Nombre/ }), { target: { value: 'aviso_pedido' } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Texto del mensaje/ }), { target: { value: 'Hola {{1}}, tu pedido {{2}} salió.' } });
    await user.click(within(form).getByRole('button', { name: 'Enviar a Meta' }));
    expect(form.textContent).toContain('Meta pide un valor de ejemplo para cada variable: falta el de {{1}}');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Ejemplo de {{1}}' }), { target: { value: 'María' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Ejemplo de {{2}}' }), { target: { value: 'A-1024' } });
    const live = screen.getByRole('figure', { name: 'Vista previa de la plantilla nueva' });
    expect(live.textContent).toContain('Hola María, tu pedido A-1024 salió.');
    await user.click(within(form).getByRole('button', { name: 'Enviar a Meta' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST') as FakeCall;
    expect(post.body).toMatchObject({ name: 'aviso_pedido', language: 'es_PE', category: 'UTILITY', body: 'Hola {{1}}, tu pedido {{2}} salió.', bodyExamples: ['María', 'A-1024'], variableFields: ['', ''] });
  });

  it('an image header takes its example file from Drive, among the images only', async () => {
    const user = userEvent.setup();
    const photo = {
      _id: 'abcdefghijklmnopqrstuvwx',
      name: 'Oferta.png',
      folder: 'Productos',
      mimeType: 'image/png',
      kind: 'image',
      size: 8_000,
      sha256: 'a'.repeat(64),
      path: '/api/drive/files/abcdefghijklmnopqrstuvwx/Oferta.png',
      url: 'https://mostrador.test/api/drive/files/abcdefghijklmnopqrstuvwx/Oferta.png',
      uploadedBy: null,
      createdAt: '2026-11-20T15:00:00Z',
    };
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return permissions;
      if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: listOf([]) };
      if (call.path === '/drive/folders') return { status: 200, body: { payload: [{ name: 'Productos', files: 1 }] } };
      if (call.path === '/drive/files') return { status: 200, body: pageOf([photo]) };
      return undefined;
    });
    renderApp(<TemplatesPage />, { route: '/mensajes_de_plantilla' });
    await screen.findByTestId('templates-empty', undefined, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Nueva plantilla' }));
    const form = screen.getByRole('form', { name: 'Nueva plantilla de WhatsApp' });
    await user.click(within(form).getByRole('combobox', { name: 'Tipo de encabezado' }));
    await user.click(await screen.findByRole('option', { name: 'Imagen' }));
    await user.click(within(form).getByRole('button', { name: 'Elegir desde Drive' }));
    const picker = await screen.findByRole('dialog', { name: 'Elegir desde Drive' }, { timeout: 10_000 });
    await user.click(await within(picker).findByRole('option', { name: 'Oferta.png' }));
    await user.click(within(picker).getByRole('button', { name: 'Elegir' }));
    await waitFor(() => expect((within(form).getByRole('textbox', { name: 'Enlace del archivo de ejemplo' }) as HTMLInputElement).value).toBe(photo.url));
    expect(calls.filter((c) => c.path === '/drive/files').every((c) => c.query.get('kind') === 'image')).toBe(true);
  });
});

describe('Composer: a template when the window is closed', () => {
  const closed: ChatState = { chatId: 'chat-1', platform: 'whatsapp', channel: 'whatsapp', state: 'window_closed', canSend: false, reason: chatStateReasons.windowClosed('whatsapp'), status: 'open' };

  it('offers the approved templates, prefills the variables from the lead saying from which field, previews and sends them', async () => {
    const user = userEvent.setup();
    const sent = { _id: 'm-1', chatId: 'chat-1', direction: 'out', kind: 'text', text: 'Hola Rosa…', hasMedia: false, status: 'sent', isActive: true, sentAt: at };
    const { calls, spy } = fakeApi((call: FakeCall) => {
      if (call.path === '/respuestas-rapidas') return { status: 200, body: pageOf([]) };
      if (call.method === 'GET' && call.path === '/chats/chat-1/templates') return { status: 200, body: { payload: [approved], values: { nombre: 'Rosa Quispe', empresa: 'Demo Perú', agente: 'Ana' } } };
      if (call.method === 'POST' && call.path === '/chats/chat-1/template') return { status: 201, body: sent };
      return undefined;
    });
    const onTemplateSent = vi.fn();
    renderApp(<Composer chatId="chat-1" closed={false} state={closed} sending={false} onSend={vi.fn(async () => true)} onTemplateSent={onTemplateSent} />);
    const banner = screen.getByTestId('outside-window');
    expect(banner.textContent).not.toContain('aún no está disponible');
    expect(banner.textContent).toContain('Envíale una plantilla aprobada');
    await user.click(within(banner).getByRole('button', { name: 'Enviar plantilla' }));

    const form = await screen.findByRole('form', { name: 'Enviar una plantilla de WhatsApp' }, { timeout: 10_000 });
    const first = (await within(form).findByRole('textbox', { name: '{{1}} · Nombre del lead' }, { timeout: 10_000 })) as HTMLInputElement;
    expect(first.value).toBe('Rosa Quispe');
    expect(form.textContent).toContain('Completado con: Nombre del lead. Puedes cambiarlo.');
    expect((within(form).getByRole('textbox', { name: '{{2}} · Nombre de tu empresa' }) as HTMLInputElement).value).toBe('Demo Perú');
    const third = within(form).getByRole('textbox', { name: '{{3}}' }) as HTMLInputElement;
    expect(third.value).toBe('');
    expect(form.textContent).toContain('Escríbelo tú (ejemplo: 15:00)');
    expect(within(form).getByTestId('template-preview').querySelector('[data-missing="true"]')?.textContent).toBe('{{3}}');

    await user.click(within(form).getByRole('button', { name: 'Enviar plantilla' }));
    expect(form.textContent).toContain('Completa el valor de {{3}}');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(third, '16:00');
    expect(within(form).getByTestId('template-preview').textContent).toContain('Hola Rosa Quispe, te escribimos de Demo Perú por tu cotización. Llega a las 16:00.');
    await user.click(within(form).getByRole('button', { name: 'Enviar plantilla' }));
    await waitFor(() => expect(onTemplateSent).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST') as FakeCall;
    expect(post.body).toEqual({ templateId: approved._id, bodyValues: ['Rosa Quispe', 'Demo Perú', '16:00'] });
    // sent with an Idempotency-Key: a repeated click never sends twice
    const init = spy.mock.calls.find(([, i]) => i?.method === 'POST')?.[1];
    expect(new Headers(init?.headers).get('Idempotency-Key')?.startsWith('tpl-')).toBe(true);
  });

  it('Messenger offers no WhatsApp template', () => {
    fakeApi((call: FakeCall) => (call.path === '/respuestas-rapidas' ? { status: 200, body: pageOf([]) } : undefined));
    renderApp(
      <Composer
        chatId="chat-2"
        closed={false}
        state={{ ...closed, chatId: 'chat-2', platform: 'facebook', channel: 'messenger', reason: chatStateReasons.windowClosed('messenger') }}
        sending={false}
        onSend={vi.fn(async () => true)}
        onTemplateSent={vi.fn()}
      />,
    );
    expect(within(screen.getByTestId('outside-window')).queryByRole('button', { name: 'Enviar plantilla' })).toBeNull();
  });

  it('the thread shows a template sent as its rendered text, labelled with the template', () => {
    renderApp(
      <MessageBubble
        message={{ _id: 'm-2', chatId: 'chat-1', direction: 'out', kind: 'text', text: 'Pedido A-1\n\nHola Rosa', hasMedia: false, status: 'sent', isActive: true, sentAt: at, content: { template: { name: 'pedido_en_camino', language: 'es_PE' } } }}
      />,
    );
    expect(screen.getByTestId('template-label').textContent).toBe('Plantilla · pedido_en_camino');
    expect(screen.getByTestId('message').textContent).toContain('Hola Rosa');
  });
});
