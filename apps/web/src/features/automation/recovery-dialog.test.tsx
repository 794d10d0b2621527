import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { RecoveryDialog } from './recovery-dialog';

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const TEMPLATE = '00000000-0000-4000-8000-000000000007';
const settings = { enabled: false, afterHours: 4, text: 'Hola {nombre}, tu carrito: {enlace}', templateId: null, templateValues: [], templateCost: null, catalogId: 'cat', updatedAt: null };

describe('«Recuperar ventas»', () => {
  it('turns the follow-up on with a template (its values, its cost once saved), shows the follow-ups and what they brought, and runs now', async () => {
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === '/recovery/settings') return { status: 200, body: settings };
      if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: pageOf([{ _id: TEMPLATE, name: 'carrito_pendiente', language: 'es', body: 'Hola {{1}}, tu carrito te espera: {{2}}', category: 'MARKETING', status: 'APPROVED' }]) };
      if (call.method === 'PUT' && call.path === '/recovery/settings') {
        const body = call.body as Record<string, unknown>;
        return { status: 200, body: { ...settings, ...body, templateCost: { usd: 0.0703, category: 'MARKETING' } } };
      }
      if (call.method === 'GET' && call.path === '/recovery/followups')
        return {
          status: 200,
          body: {
            payload: [
              { _id: 'f1', chatId: 'c1', contactName: 'Camila Rojas', status: 'sent', kind: 'text', reason: null, products: [{ sku: 'PP-M', name: 'Polo pima', quantity: 2 }], cartUrl: 'x', order: { code: 'P-ABC234', total: 90, currency: 'PEN' }, createdAt: '2026-12-01T15:00:00Z' },
              { _id: 'f2', chatId: 'c2', contactName: 'Rosa Díaz', status: 'skipped', kind: null, reason: 'La conversación es negativa: pasó a un agente en vez de recibir un seguimiento', products: [], cartUrl: null, order: null, createdAt: '2026-12-01T14:00:00Z' },
            ],
          },
        };
      if (call.method === 'POST' && call.path === '/recovery/run') return { status: 200, body: { sent: 1, skipped: 2, failed: 0 } };
      return undefined;
    });
    renderApp(<RecoveryDialog open onClose={() => undefined} mayUpdate />);
    const dialog = await screen.findByRole('dialog');
    const items = await within(dialog).findAllByTestId('recovery-followup');
    expect(items[0].textContent).toContain('Compró: P-ABC234');
    expect(items[0].textContent).toContain('2 × Polo pima');
    expect(items[1].textContent).toContain('pasó a un agente');

    await userEvent.click(within(dialog).getByRole('switch', { name: 'Enviar seguimientos' }));
    const hours = within(dialog).getByLabelText('Horas sin pedido antes del seguimiento');
    await userEvent.clear(hours);
    await userEvent.type(hours, '100');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Escribe un número de horas entre 1 y 72')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.clear(hours);
    await userEvent.type(hours, '6');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Plantilla fuera de la ventana (WhatsApp)' }));
    await userEvent.click(await screen.findByRole('option', { name: 'carrito_pendiente (es)' }));
    await userEvent.type(within(dialog).getByLabelText('Valor {{1}}'), '{{nombre}');
    await userEvent.type(within(dialog).getByLabelText('Valor {{2}}'), '{{enlace}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect((await within(dialog).findByRole('status')).textContent).toBe('Ajustes guardados');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      enabled: true,
      afterHours: 6,
      text: 'Hola {nombre}, tu carrito: {enlace}',
      templateId: TEMPLATE,
      templateValues: ['{nombre}', '{enlace}'],
    });
    expect((await within(dialog).findByTestId('recovery-cost')).textContent).toContain('Cada seguimiento con esta plantilla cuesta');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Revisar ahora' }));
    await waitFor(() => expect(within(dialog).getByText('Enviados: 1 · No enviados: 2 · Fallidos: 0')).toBeTruthy());
  });
});
