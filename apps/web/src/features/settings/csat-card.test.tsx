import type { CsatSettingsOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeAnswer, type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { CsatCard } from './csat-card';

vi.setConfig({ testTimeout: 20_000 });

const off: CsatSettingsOut = { enabled: false, style: 'buttons', question: '¡Gracias por escribirnos! ¿Cómo calificarías la atención que recibiste?' };
const perms =
  (actions: string[]) =>
  (call: FakeCall): FakeAnswer =>
    call.path === '/permissions' ? { status: 200, body: { role: 'admin', permissions: { settings: actions } } } : undefined;

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('«Encuesta de satisfacción» on /configuracion', () => {
  it('turns the survey on as a 1–5 list with the company’s question, and previews the options', async () => {
    const api = fakeApi((call) => {
      if (call.path === '/csat/settings' && call.method === 'GET') return { status: 200, body: off };
      if (call.path === '/csat/settings' && call.method === 'PUT') return { status: 200, body: { ...(call.body as object), updatedAt: '2026-03-01T10:00:00.000Z' } };
      return perms(['read', 'update'])(call);
    });
    renderApp(<CsatCard />);
    const toggle = await screen.findByRole('switch', { name: 'Enviar la encuesta al resolver un chat' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(within(screen.getByTestId('csat-preview')).getByText('😀 Bien')).toBeTruthy();
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('combobox', { name: 'Forma de responder' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Lista del 1 al 5' }));
    expect(within(screen.getByTestId('csat-preview')).getByText('5 · Excelente')).toBeTruthy();
    const question = screen.getByRole('textbox', { name: 'Pregunta' });
    await userEvent.clear(question);
    await userEvent.type(question, '¿Qué tal te atendimos?');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: true, style: 'list', question: '¿Qué tal te atendimos?' });
  });

  it('says an empty question next to the field without calling the server', async () => {
    const api = fakeApi((call) => (call.path === '/csat/settings' && call.method === 'GET' ? { status: 200, body: off } : perms(['read', 'update'])(call)));
    renderApp(<CsatCard />);
    const question = await screen.findByRole('textbox', { name: 'Pregunta' });
    await userEvent.clear(question);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escribe la pregunta que recibirá el cliente')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('is read only for someone who may not change the settings', async () => {
    fakeApi((call) => (call.path === '/csat/settings' && call.method === 'GET' ? { status: 200, body: { ...off, enabled: true } } : perms(['read'])(call)));
    renderApp(<CsatCard />);
    const toggle = await screen.findByRole('switch', { name: 'Enviar la encuesta al resolver un chat' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
  });
});
