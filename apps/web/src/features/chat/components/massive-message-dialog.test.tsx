import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFeedback } from '../../../lib/feedback';
import { jsonResponse, renderApp } from '../../../test/render';
import { MassiveMessageDialog } from './massive-message-dialog';

const fetchMock = vi.fn<typeof fetch>();
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444', '55555555-5555-4555-8555-555555555555'];
const outside = 'Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada.';
const optedOut = 'La persona pidió no recibir mensajes (/dias-frecuencia)';

beforeAll(async () => {
  await import('../../../components/ui/feedback-view');
});
beforeEach(() => {
  resetFeedback();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

async function send(answer: unknown, chatIds = ids) {
  fetchMock.mockResolvedValueOnce(jsonResponse(200, answer));
  const names = new Map(chatIds.map((id, i) => [id, `Cliente ${i + 1}`]));
  renderApp(<MassiveMessageDialog open chatIds={chatIds} names={names} onClose={() => {}} onSent={() => {}} />);
  const dialog = await screen.findByRole('dialog', { name: 'Enviar mensaje masivo' });
  await userEvent.click(within(dialog).getByRole('textbox', { name: 'Mensaje' }));
  await userEvent.paste('Hoy 20% de descuento');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
  return dialog;
}

describe('mass message: how many were skipped and why, not just "sent"', () => {
  it('says how many of how many went out, how many were skipped for each reason, and which chats', async () => {
    const dialog = await send({
      msg: 'Mensajes enviados con éxito',
      queued: 2,
      skipped: [
        { chatId: ids[2], contactName: 'Rosa Quispe', reason: outside },
        { chatId: ids[3], reason: outside },
        { chatId: ids[4], contactName: 'Luis Paredes', reason: optedOut },
      ],
    });
    // the snackbar keeps the spec's sentence and adds the detail under it
    expect(await screen.findByText('Mensajes enviados con éxito')).toBeTruthy();
    expect(screen.getByTestId('success-detail').textContent).toBe(
      '3 de 5 chats omitidos: Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada (2); La persona pidió no recibir mensajes (/dias-frecuencia) (1)',
    );
    const summary = await within(dialog).findByTestId('massive-summary');
    expect(within(summary).getByText('Se enviaron 2 de 5 mensajes; 3 chats omitidos.')).toBeTruthy();
    expect(within(summary).getByText(`2 × ${outside}`)).toBeTruthy();
    expect(within(summary).getByText(`1 × ${optedOut}`)).toBeTruthy();
    const skipped = within(dialog).getByTestId('massive-skipped');
    expect(within(skipped).getByText('Rosa Quispe')).toBeTruthy();
    // a chat the server does not name is named as the inbox shows it
    expect(within(skipped).getByText('Cliente 4')).toBeTruthy();
    expect(within(skipped).getByText('Luis Paredes')).toBeTruthy();
  });

  it('says nothing was sent when every chat was skipped, without a success snackbar', async () => {
    const dialog = await send({ msg: 'Mensajes enviados con éxito', queued: 0, skipped: [{ chatId: ids[0], reason: optedOut }] }, [ids[0]]);
    const summary = await within(dialog).findByTestId('massive-summary');
    expect(within(summary).getByText('No se envió ningún mensaje: 1 chat omitido.')).toBeTruthy();
    expect(screen.queryByTestId('success-snackbar')).toBeNull();
  });

  it('closes with the plain success message when nothing was skipped', async () => {
    await send({ msg: 'Mensajes enviados con éxito', queued: 5, skipped: [] });
    expect(await screen.findByText('Mensajes enviados con éxito')).toBeTruthy();
    expect(screen.queryByTestId('success-detail')).toBeNull();
  });
});
