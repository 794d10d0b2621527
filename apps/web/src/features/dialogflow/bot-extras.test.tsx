import type { BotStatusOut } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { BotState, BotSummary } from './bot-extras';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

const admin = { integrations: ['list', 'read', 'create', 'update', 'delete'] };
const bot: ResourceRecord = {
  _id: 'bot-1',
  name: 'Asistente WhatsApp',
  platform: 'whatsapp',
  dialogflowProjectId: 'bodega-lucho-wa',
  language: 'es',
  active: true,
  credentialsSet: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const status = (over: Partial<BotStatusOut> = {}): BotStatusOut => ({
  botId: 'bot-1',
  connection: 'ok',
  connectionMsg: 'Conexión correcta',
  testedAt: '2026-11-26T10:00:00.000Z',
  ready: true,
  sandbox: false,
  answered: 12,
  handedOver: 3,
  failed: 0,
  answering: 4,
  ...over,
});

function serve(current: { status: BotStatusOut }, test: (call: FakeCall) => object) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
    if (call.path === '/bots/status') return { status: 200, body: { payload: [current.status] } };
    if (call.method === 'POST' && call.path === '/bots/bot-1/test') return { status: 200, body: test(call) };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/dialogflow', () => {
  it('shows whether the bot answers, its connection and what it did lately', async () => {
    serve({ status: status() }, () => ({}));
    renderApp(<BotState bot={bot} />);
    const state = await screen.findByTestId('bot-state');
    expect(await within(state).findByText('Atiende chats')).toBeTruthy();
    expect(within(state).getByText('Conectado')).toBeTruthy();
    expect(within(state).getByText(/Últimos 7 días: 12 respuestas · 3 chats pasados a una persona · 4 chats atendiendo/)).toBeTruthy();
  });

  it('«Probar conexión» sends the text and shows the matched intent, then the Spanish reason when the key was revoked', async () => {
    const current = { status: status({ connection: 'untested', connectionMsg: undefined, testedAt: undefined }) };
    let answer: object = {
      ok: true,
      msg: 'Conexión correcta: «¿precio?» coincide con la intención «precios»',
      intent: 'precios',
      fallback: false,
      confidence: 0.87,
      reply: 'El pack familiar cuesta S/ 49.90',
      testedAt: '2026-11-26T10:00:00.000Z',
    };
    const calls = serve(current, () => answer);
    renderApp(
      <>
        <BotSummary bot={bot} />
        <BotState bot={bot} />
      </>,
    );
    expect(await screen.findByText('Sin probar')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Probar conexión: Asistente WhatsApp' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Texto de prueba');
    await userEvent.clear(input);
    await userEvent.type(input, '¿precio?');
    current.status = status();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Probar' }));
    expect((await within(dialog).findByTestId('bot-test-result')).textContent).toContain('coincide con la intención «precios»');
    expect(within(dialog).getByText(/El pack familiar cuesta S\/ 49.90/)).toBeTruthy();
    expect(within(dialog).getByText('Confianza 87 %')).toBeTruthy();
    expect(calls.calls.find((c) => c.path === '/bots/bot-1/test')?.body).toEqual({ text: '¿precio?' });
    // the row's state follows the test
    expect(await screen.findByText('Conectado')).toBeTruthy();

    const reason = 'Google rechazó la cuenta de servicio (invalid_grant: Invalid JWT Signature.): la clave fue revocada, borrada o no corresponde a ese client_email. Crea una clave nueva y guárdala en el bot';
    answer = { ok: false, msg: reason, testedAt: '2026-11-26T10:05:00.000Z' };
    current.status = status({ connection: 'failed', connectionMsg: reason });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Probar' }));
    expect(await within(dialog).findByText(reason)).toBeTruthy();
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Cerrar' })[0]);
    expect(await screen.findByText('Con error')).toBeTruthy();
    expect(screen.getAllByText(reason).length).toBeGreaterThan(0);
  });
});
