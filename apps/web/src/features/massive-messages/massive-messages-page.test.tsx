import type { SendCheckOut, SendOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { MassiveMessagesPage } from './massive-messages-page';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));
vi.setConfig({ testTimeout: 30_000 });

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const SEGMENT = id(1);
const LABEL_A = id(2);
const LABEL_B = id(3);
const TEMPLATE = id(4);
const IMAGINA = id(5);
const SEND = id(6);
const nf = new Intl.NumberFormat('es-PE');

const template = {
  _id: TEMPLATE,
  businessAccountId: 'waba',
  name: 'promo_fin_de_mes',
  language: 'es_PE',
  category: 'MARKETING',
  status: 'APPROVED',
  body: 'Hola {{1}}, este fin de mes tenemos 2x1.',
  bodyExamples: ['María'],
  buttons: [],
  variableFields: ['nombre'],
  sendable: true,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
};
const imagina = [
  { _id: IMAGINA, name: 'bienvenida_cliente', language: 'es_PE', category: 'MARKETING', body: '¡Hola {{nombre}}! Gracias por escribir a {{empresa}}.', status: 'approved', whatsappTemplate: 'bienvenida_cliente' },
  { _id: id(7), name: 'promo_borrador', language: 'es_PE', category: 'MARKETING', body: 'Borrador', status: 'draft' },
];

const checkOf = (over: Partial<SendCheckOut> = {}): SendCheckOut => ({
  audience: 1500,
  queued: 1200,
  skipped: [
    { reason: 'La persona pidió no recibir mensajes (/dias-frecuencia)', count: 200 },
    { reason: 'No tiene chat de WhatsApp', count: 100 },
  ],
  skippedSample: [{ cleanLeadId: id(50), name: 'Rosa Quispe', telefono: '51987000001', reason: 'No tiene chat de WhatsApp' }],
  insideWindow: 200,
  outsideWindow: 1000,
  dailyLimit: { tier: 'TIER_2K', limit: 2000, known: true, used: 300, over: 0 },
  cost: {
    currency: 'PEN',
    total: 263.63,
    lines: [{ category: 'MARKETING', market: 'PE', count: 1000, rate: 0.2636, amount: 263.63 }],
    free: 200,
    ratesAsOf: '2025-07-01',
    usdRate: 3.75,
  },
  ...over,
});

const counts = (over: Partial<SendOut['counts']> = {}): SendOut['counts'] => ({ total: 0, queued: 0, sending: 0, skipped: 0, sent: 0, delivered: 0, read: 0, failed: 0, ...over });
const sendOf = (over: Partial<SendOut> = {}): SendOut => ({
  _id: SEND,
  kind: 'massive',
  name: 'Promo de diciembre',
  status: 'pending',
  counts: counts({ total: 1200, queued: 1200 }),
  stopRequested: false,
  createdAt: '2026-11-26T08:00:00Z',
  ...over,
});

function serve(options: { check?: (body: { audience: Record<string, unknown>; message: Record<string, unknown> }) => SendCheckOut; send?: () => { status: number; body: unknown }; templates?: unknown[] } = {}) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { marketing: ['list', 'read', 'create', 'update', 'delete'], messaging: ['list', 'read', 'create'] } } };
    if (call.method === 'GET' && call.path === '/marketing-segments') return { status: 200, body: pageOf([{ _id: SEGMENT, name: 'Clientes de Lima', filters: {} }]) };
    if (call.method === 'GET' && call.path === '/mostrador-labels') return { status: 200, body: pageOf([{ _id: LABEL_A, name: 'VIP' }, { _id: LABEL_B, name: 'Mayorista' }]) };
    if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: { ...pageOf(options.templates ?? [template]), line: { sandbox: true } } };
    if (call.method === 'GET' && call.path === '/imagina_template_messages') return { status: 200, body: pageOf(imagina) };
    if (call.method === 'POST' && call.path === '/marketing-segments/preview') return { status: 200, body: { count: 1500, sample: [] } };
    if (call.method === 'POST' && call.path === '/sends/check') return { status: 200, body: (options.check ?? (() => checkOf()))(call.body as never) };
    if (call.method === 'POST' && call.path === '/sends') return options.send?.() ?? { status: 202, body: { msg: 'Envío masivo en cola: sigue su avance en el historial', send: sendOf(), logId: id(8) } };
    if (call.method === 'GET' && call.path === `/sends/${SEND}`) return { status: 200, body: sendOf() };
    return undefined;
  });
}

const render = (route = '/marketing/massive-messages') =>
  renderApp(
    <Routes>
      <Route path="/marketing/massive-messages" element={<MassiveMessagesPage />} />
    </Routes>,
    { route },
  );

async function choose(label: string, option: string | RegExp) {
  await userEvent.click(await screen.findByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

const checks = (calls: FakeCall[]) => calls.filter((c) => c.path === '/sends/check');

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/marketing/massive-messages', () => {
  it('checks the form as it settles: who gets it, who not and why, the window, the limit and the cost', async () => {
    const { calls } = serve();
    render(`/marketing/massive-messages?segment=${SEGMENT}`);
    // each segment with how many people it holds now
    await userEvent.click(await screen.findByRole('combobox', { name: 'Segmento' }));
    expect((await screen.findByRole('option', { name: /^Clientes de Lima/ })).textContent).toBe(`Clientes de Lima${nf.format(1500)} personas`);
    await userEvent.keyboard('{Escape}');
    await choose('Plantilla de WhatsApp', /promo_fin_de_mes/);
    // the template as the phone shows it, its variable named after the lead's field
    expect(within(screen.getByRole('figure', { name: 'Vista previa de la plantilla' })).getByText('Nombre del lead')).toBeTruthy();

    await waitFor(() => expect(screen.getByTestId('check-queued').textContent).toBe(nf.format(1200)));
    expect(checks(calls)[0].body).toEqual({ audience: { segmentId: SEGMENT }, message: { whatsappTemplateId: TEMPLATE } });
    expect(screen.getByTestId('check-audience').textContent).toBe(nf.format(1500));
    expect(screen.getByTestId('check-skipped').textContent).toBe('300');
    expect(screen.getByTestId('check-summary').textContent).toContain(`${nf.format(200)} dentro de la ventana de 24 h`);
    const reasons = screen.getByRole('list', { name: 'Razones de los omitidos' });
    expect(within(reasons).getByText(/No tiene chat de WhatsApp/)).toBeTruthy();
    expect(within(reasons).getByText('200')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Ver a quiénes/ }));
    const sample = await screen.findByRole('list', { name: 'Ejemplos de omitidos' });
    expect(within(sample).getByText('Rosa Quispe')).toBeTruthy();
    expect(screen.getByTestId('check-daily-limit').textContent).toBe(`Límite diario de la línea: ${nf.format(2000)} personas fuera de la ventana de 24 h · usadas hoy: 300`);
    expect(screen.queryByTestId('check-over-limit')).toBeNull();
    const money = new Intl.NumberFormat('es-PE', { style: 'currency', currency: 'PEN' });
    expect(screen.getByTestId('check-cost-total').textContent).toBe(money.format(263.63));
    const table = screen.getByRole('table', { name: 'Costo por categoría y país' });
    expect(within(table).getByText('Marketing')).toBeTruthy();
    expect(within(table).getByText('Perú')).toBeTruthy();
    expect(within(table).getByText(new RegExp(`^${nf.format(1000)} × S/`))).toBeTruthy();
    expect(screen.getByTestId('check-cost-note').textContent).toMatch(/^Estimado con la tarifa de Meta del 1 de julio de 2025 y un tipo de cambio de referencia .*Meta cobra solo los mensajes entregados\.$/);

    // labels instead: one check of the settled choice, not one per click
    const before = checks(calls).length;
    await userEvent.click(screen.getByRole('radio', { name: 'Etiquetas Mostrador' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Etiquetas' }));
    await userEvent.click(await screen.findByRole('option', { name: 'VIP' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Etiquetas' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Mayorista' }));
    await waitFor(() => expect(checks(calls).at(-1)?.body).toEqual({ audience: { mostradorLabelIds: [LABEL_A, LABEL_B] }, message: { whatsappTemplateId: TEMPLATE } }));
    expect(checks(calls).length - before).toBeLessThanOrEqual(2);
  });

  it('warns when the send goes over the line’s daily limit', async () => {
    serve({ check: () => checkOf({ dailyLimit: { tier: 'TIER_2K', limit: 2000, known: true, used: 1900, over: 1100 } }) });
    render(`/marketing/massive-messages?segment=${SEGMENT}`);
    await choose('Plantilla de WhatsApp', /promo_fin_de_mes/);
    const warning = await screen.findByTestId('check-over-limit');
    expect(warning.textContent).toContain(`${nf.format(1100)} personas de este envío superan el límite diario de la línea`);
    expect(screen.getByTestId('check-daily-limit').textContent).toContain(`usadas hoy: ${nf.format(1900)}`);
  });

  it('what blocks the send is an error and «Enviar» stays off', async () => {
    serve({ check: () => checkOf({ blocking: 'La empresa no tiene una línea de WhatsApp conectada', queued: 0 }) });
    render(`/marketing/massive-messages?segment=${SEGMENT}`);
    await userEvent.type(screen.getByRole('textbox', { name: /Nombre del envío/ }), 'Promo');
    await choose('Plantilla de WhatsApp', /promo_fin_de_mes/);
    expect((await screen.findByTestId('check-blocking')).textContent).toBe('La empresa no tiene una línea de WhatsApp conectada');
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('«Enviar» restates who and how much, posts the send, and its progress moves live', async () => {
    const { calls } = serve();
    render(`/marketing/massive-messages?imagina=${IMAGINA}&segment=${SEGMENT}`);
    // ?imagina= preselects the template: its preview with the company's values filled
    const preview = await screen.findByRole('figure', { name: 'Vista previa de la plantilla Imagina' });
    expect(preview.querySelector('[data-variable="nombre"]')?.textContent).toBe('{{nombre}}');
    expect(within(preview).getByText(/como la plantilla de WhatsApp «bienvenida_cliente»/)).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: /Nombre del envío/ }), 'Promo de diciembre');
    const button = screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`«Promo de diciembre» se enviará a ${nf.format(1200)} personas del segmento «Clientes de Lima».`)).toBeTruthy();
    expect(within(dialog).getByText(/Costo estimado: S\/\s?263\.63/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/sends')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/sends')?.body).toEqual({
      name: 'Promo de diciembre',
      audience: { segmentId: SEGMENT },
      message: { imaginaTemplateId: IMAGINA },
    });
    const progress = await screen.findByRole('region', { name: 'Avance del envío' });
    expect(within(progress).getByTestId('send-status').textContent).toBe('Pendiente');
    await emit({ type: 'send.progress', send: sendOf({ status: 'processing', counts: counts({ total: 1200, queued: 600, sent: 600 }) }) });
    expect(within(progress).getByTestId('send-done').textContent).toBe(`600 de ${nf.format(1200)}`);
    await emit({ type: 'send.progress', send: sendOf({ status: 'sent', counts: counts({ total: 1200, sent: 1190, failed: 10 }) }) });
    expect(within(progress).getByTestId('send-status').textContent).toBe('Enviado');
    expect(within(progress).getByTestId('send-count-failed').textContent).toBe('10');
    expect(within(progress).getByRole('link', { name: 'Ver en el historial' }).getAttribute('href')).toBe('/marketing/historial_mensajes_masivos');
  });

  it('a refused send says why next to the field or above «Enviar», and keeps the form', async () => {
    let answer = { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Revisa los campos', details: [{ path: 'name', msg: 'El nombre admite hasta 200 caracteres' }] } } };
    serve({ send: () => answer });
    render(`/marketing/massive-messages?segment=${SEGMENT}`);
    await userEvent.type(screen.getByRole('textbox', { name: /Nombre del envío/ }), 'Promo');
    await choose('Plantilla de WhatsApp', /promo_fin_de_mes/);
    const button = screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    await userEvent.click(button);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('El nombre admite hasta 200 caracteres')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByRole('textbox', { name: /Nombre del envío/ }) as HTMLInputElement).value).toBe('Promo');

    answer = { status: 409, body: { errors: { code: 'CONFLICT', msg: 'Nadie de esta audiencia recibiría el mensaje: revisa los omitidos' } } } as never;
    await userEvent.click(button);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByTestId('send-error')).textContent).toBe('Nadie de esta audiencia recibiría el mensaje: revisa los omitidos');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('combobox', { name: 'Plantilla de WhatsApp' }).textContent).toContain('promo_fin_de_mes');
  });

  it('says so when the line has no approved templates', async () => {
    serve({ templates: [] });
    render();
    expect(await screen.findByText(/La línea de WhatsApp no tiene plantillas aprobadas/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a Mensajes de plantilla' })).toBeTruthy();
  });
});
