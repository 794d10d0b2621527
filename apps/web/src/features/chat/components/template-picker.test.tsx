import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { TemplatePicker } from './template-picker';

vi.setConfig({ testTimeout: 30_000 });

const CHAT = '00000000-0000-4000-8000-000000000001';
const IMAGINA = '00000000-0000-4000-8000-000000000002';
const template = {
  _id: '00000000-0000-4000-8000-000000000003',
  businessAccountId: 'waba',
  name: 'promo_fin_de_mes',
  language: 'es_PE',
  category: 'MARKETING',
  status: 'APPROVED',
  body: 'Hola {{1}}',
  bodyExamples: ['María'],
  buttons: [],
  variableFields: ['nombre'],
  sendable: true,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('the chat’s template picker', () => {
  it('offers the approved Imagina templates too: the preview with the lead’s values, and send_single_message for the open chat', async () => {
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/templates`) return { status: 200, body: { payload: [template], values: { nombre: 'Rosa Quispe', empresa: 'Demo Perú' } } };
      if (call.method === 'GET' && call.path === '/imagina_template_messages')
        return {
          status: 200,
          body: pageOf([
            { _id: IMAGINA, name: 'bienvenida_cliente', language: 'es_PE', category: 'MARKETING', body: '¡Hola {{nombre}}! Gracias por escribir a {{empresa}}.', status: 'approved', whatsappTemplate: 'promo_fin_de_mes' },
            { _id: 'draft', name: 'promo_borrador', language: 'es_PE', category: 'MARKETING', body: 'x', status: 'draft' },
          ]),
        };
      if (call.method === 'POST' && call.path === '/imagina_template_messages/send_single_message') return { status: 202, body: { msg: 'Mensaje en cola de envío', send: {}, logId: 'log' } };
      return undefined;
    });
    const onClose = vi.fn();
    const onSent = vi.fn();
    renderApp(<TemplatePicker chatId={CHAT} open onClose={onClose} onSent={onSent} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('combobox', { name: 'Plantilla aprobada' }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByRole('option', { name: /promo_borrador/ })).toBeNull();
    await userEvent.click(within(listbox).getByRole('option', { name: 'bienvenida_cliente · Imagina' }));

    const preview = await within(dialog).findByTestId('imagina-preview');
    expect(preview.textContent).toContain('¡Hola Rosa Quispe! Gracias por escribir a Demo Perú.');
    expect(within(dialog).getByTestId('imagina-how').textContent).toContain('«promo_fin_de_mes»');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar plantilla' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/imagina_template_messages/send_single_message', body: { imaginaTemplateId: IMAGINA, chatId: CHAT } });
    expect(await screen.findByText('Mensaje en cola de envío')).toBeTruthy();
    expect(onSent).not.toHaveBeenCalled();
  });
});
