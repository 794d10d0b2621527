import type { ScheduledMessageOut } from '@mostrador/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { type FakeCall, fakeApi } from '../../../test/fake-api';
import { FakeXhr } from '../../../test/fake-xhr';
import { renderApp } from '../../../test/render';
import { Composer } from './composer';
import { ScheduleDialog, ScheduledStrip, scheduledWhen } from './scheduled-messages';
import { TemplatePicker } from './template-picker';

vi.setConfig({ testTimeout: 30_000 });

const CHAT = '00000000-0000-4000-8000-000000000001';
const company = { _id: 'company-1', name: 'Demo Perú', country: 'PE' as const, timezone: 'America/Lima' };
const base = (over: Partial<ScheduledMessageOut>): ScheduledMessageOut => ({
  _id: '00000000-0000-4000-8000-000000000010',
  chatId: CHAT,
  kind: 'text',
  text: 'Hola Rosa, ya llegó tu pedido',
  mediaUrl: null,
  template: null,
  sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  status: 'pending',
  error: null,
  messageId: null,
  createdBy: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  sentAt: null,
  ...over,
});

beforeEach(() =>
  sessionStore.set((s) => ({
    ...s,
    token: 'token',
    companyId: 'company-1',
    user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company, default: true, role: 'admin' as const }] } } as never,
  })),
);
afterEach(() => vi.restoreAllMocks());

describe('«Programar envío»', () => {
  it('prefills the composer’s text, refuses a past time in Spanish and schedules on the company’s clock', async () => {
    const { calls } = fakeApi((call: FakeCall) =>
      call.method === 'POST' && call.path === `/chats/${CHAT}/scheduled-messages` ? { status: 201, body: base({ text: (call.body as { text: string }).text }) } : undefined,
    );
    const onSaved = vi.fn();
    const onClose = vi.fn();
    renderApp(<ScheduleDialog chatId={CHAT} text="Hola Rosa, ya llegó tu pedido" onClose={onClose} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    expect((within(dialog).getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).value).toBe('Hola Rosa, ya llegó tu pedido');
    expect(within(dialog).getByText('En la hora de la compañía (America/Lima). Hasta 90 días.')).toBeTruthy();
    const input = within(dialog).getByTestId('schedule-input');
    fireEvent.change(input, { target: { value: '2020-01-01T09:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(within(dialog).getByText('Elige una fecha y hora futura')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // 9:00 in Lima is 14:00 UTC, whatever this machine's zone
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    fireEvent.change(input, { target: { value: `${day}T09:00` } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'text', text: 'Hola Rosa, ya llegó tu pedido', sendAt: `${day}T14:00:00.000Z` });
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the server’s reason when it refuses', async () => {
    fakeApi((call) =>
      call.method === 'POST'
        ? { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Messenger admite hasta 2000 caracteres por mensaje' } } }
        : undefined,
    );
    renderApp(<ScheduleDialog chatId={CHAT} text="x" onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(await within(dialog).findByText(/Messenger admite hasta 2000 caracteres/)).toBeTruthy();
  });
});

describe('the strip of scheduled messages', () => {
  it('lists the pending ones with Editar · Cancelar and the failed ones with their reason; cancelling and editing call the API', async () => {
    const pending = base({});
    const failed = base({
      _id: '00000000-0000-4000-8000-000000000011',
      status: 'failed',
      text: 'Seguimos atentos',
      sendAt: new Date(Date.now() - 3_600_000).toISOString(),
      error: 'Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada.',
    });
    const sent = base({ _id: '00000000-0000-4000-8000-000000000012', status: 'sent', text: 'Ya se fue' });
    let list = [pending, failed, sent];
    const { calls } = fakeApi((call) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/scheduled-messages`) return { status: 200, body: { payload: list } };
      if (call.method === 'DELETE' && call.path === `/chats/${CHAT}/scheduled-messages/${pending._id}`) {
        list = list.map((s) => (s._id === pending._id ? { ...s, status: 'cancelled' as const } : s));
        return { status: 200, body: { ...pending, status: 'cancelled' } };
      }
      if (call.method === 'PUT' && call.path === `/chats/${CHAT}/scheduled-messages/${pending._id}`) return { status: 200, body: { ...pending, ...(call.body as object) } };
      return undefined;
    });
    renderApp(<ScheduledStrip chatId={CHAT} />);
    const strip = await screen.findByTestId('scheduled-strip');
    await waitFor(() => expect(within(strip).getAllByTestId('scheduled-item')).toHaveLength(2));
    const when = scheduledWhen(pending.sendAt, 'America/Lima');
    expect(when).toMatch(/^\S+ \d{2}:\d{2}$/);
    expect(within(strip).getByText(`Programado para el ${when}`)).toBeTruthy();
    expect(within(strip).getByTestId('scheduled-error').textContent).toContain('Pasaron más de 24 horas');
    expect(within(strip).queryByText('Ya se fue')).toBeNull();

    // Editar opens the dialog with its text and time; saving sends the whole message
    await userEvent.click(within(strip).getByRole('button', { name: `Editar el mensaje programado para el ${when}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Cambiar el envío programado' });
    const box = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await userEvent.clear(box);
    await userEvent.type(box, 'Hola Rosa, tu pedido sale hoy');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ kind: 'text', text: 'Hola Rosa, tu pedido sale hoy' }));
    const put = calls.find((c) => c.method === 'PUT')?.body as { sendAt: string } | undefined;
    expect(new Date(put?.sendAt ?? 0).getTime()).toBe(Math.floor(new Date(pending.sendAt).getTime() / 60_000) * 60_000);

    await userEvent.click(within(strip).getByRole('button', { name: `Cancelar el mensaje programado para el ${when}` }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(within(screen.getByTestId('scheduled-strip')).getAllByTestId('scheduled-item')).toHaveLength(1));
  });
});

describe('the composer’s «Programar envío»', () => {
  it('opens the dialog with what was typed, and empties the box once scheduled', async () => {
    const { calls } = fakeApi((call: FakeCall) =>
      call.method === 'POST' && call.path === `/chats/${CHAT}/scheduled-messages` ? { status: 201, body: base({ text: (call.body as { text: string }).text }) } : undefined,
    );
    renderApp(<Composer chatId={CHAT} closed={false} sending={false} onSend={async () => true} schedule />);
    const box = screen.getByRole('textbox', { name: 'Escribe un mensaje' }) as HTMLTextAreaElement;
    await userEvent.type(box, 'Te escribo el lunes con la cotización');
    await userEvent.click(screen.getByRole('button', { name: 'Programar envío' }));
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    expect((within(dialog).getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).value).toBe('Te escribo el lunes con la cotización');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ kind: 'text', text: 'Te escribo el lunes con la cotización' });
    expect(box.value).toBe('');
  });

  it('is not offered while nothing could ever go out (channel not connected); a closed window still lets it schedule', async () => {
    fakeApi(() => undefined);
    const state = (s: 'not_connected' | 'window_closed') => ({ chatId: CHAT, platform: 'instagram' as const, channel: 'instagram' as const, state: s, canSend: false, reason: 'No conectado', status: 'open' as const });
    const { unmount } = renderApp(<Composer chatId={CHAT} closed={false} state={state('not_connected')} sending={false} onSend={async () => true} schedule />);
    expect((screen.getByRole('button', { name: 'Programar envío' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    renderApp(<Composer chatId={CHAT} closed={false} state={state('window_closed')} sending={false} onSend={async () => true} schedule />);
    expect((screen.getByRole('button', { name: 'Programar envío' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('a template scheduled from the template picker', () => {
  it('«Programar…» takes the template with its values to a date and time', async () => {
    const tpl = {
      _id: '00000000-0000-4000-8000-000000000003',
      businessAccountId: 'waba',
      name: 'recordatorio_cita',
      language: 'es_PE',
      category: 'UTILITY',
      status: 'APPROVED',
      body: 'Hola {{1}}, te recordamos tu cita.',
      bodyExamples: ['María'],
      buttons: [],
      variableFields: ['nombre'],
      sendable: true,
      createdAt: '2026-11-01T00:00:00Z',
      updatedAt: '2026-11-01T00:00:00Z',
    };
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/templates`) return { status: 200, body: { payload: [tpl], values: { nombre: 'Rosa Quispe' } } };
      if (call.method === 'GET' && call.path === '/imagina_template_messages') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 1, page: 1, limit: 30 } };
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/scheduled-messages`) return { status: 201, body: base({ kind: 'template', text: null, template: { templateId: tpl._id, bodyValues: ['Rosa Quispe'] } }) };
      return undefined;
    });
    const onClose = vi.fn();
    renderApp(<TemplatePicker chatId={CHAT} open onClose={onClose} onSent={() => {}} schedulable />);
    const picker = await screen.findByRole('dialog');
    await userEvent.click(await within(picker).findByRole('button', { name: 'Programar…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    expect(within(dialog).getByText('Se enviará la plantilla de WhatsApp elegida, con sus valores.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ kind: 'template', template: { templateId: tpl._id, bodyValues: ['Rosa Quispe'] } });
    expect(calls.some((c) => c.path.endsWith('/template'))).toBe(false);
  });
});

describe('a file scheduled with its caption', () => {
  const drive = {
    _id: 'Ab3dEf6hIj9kLm2nOp5q',
    name: 'oferta.png',
    folder: '',
    mimeType: 'image/png',
    kind: 'image' as const,
    size: 4,
    sha256: 'x',
    path: '/api/drive/files/Ab3dEf6hIj9kLm2nOp5q/oferta.png',
    url: 'https://demo.mostrador.pe/api/drive/files/Ab3dEf6hIj9kLm2nOp5q/oferta.png',
    uploadedBy: { _id: 'u1', name: 'Ana Díaz' },
    createdAt: '2026-12-01T00:00:00Z',
  };
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = undefined;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('uploads the file as Drive does, shows its name, and schedules its kind and link with the caption', async () => {
    const { calls } = fakeApi((call: FakeCall) =>
      call.method === 'POST' && call.path === `/chats/${CHAT}/scheduled-messages` ? { status: 201, body: base({ ...(call.body as object), kind: 'image' }) } : undefined,
    );
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderApp(<ScheduleDialog chatId={CHAT} onClose={() => {}} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    FakeXhr.answer = { status: 201, body: { file: drive, duplicate: false, msg: '«oferta.png» subido a Drive' } };
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'oferta.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Archivo para el envío programado'), image);
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/drive/files?name=oferta.png');
    expect(xhr.body).toBe(image);
    expect((await within(dialog).findByRole('progressbar', { name: 'Subiendo oferta.png' })).getAttribute('aria-valuenow')).toBe('50');
    // scheduling before the upload ends is refused
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(within(dialog).getByText('Espera a que termine de subir el archivo')).toBeTruthy();
    xhr.respond();
    const attached = await within(dialog).findByTestId('schedule-attachment');
    expect(attached.textContent).toContain('oferta.png');
    expect(attached.textContent).toContain('Imagen');
    // the text is the caption now, and may stay empty; here it is written
    await user.type(within(dialog).getByRole('textbox', { name: 'Texto (opcional)' }), 'Solo por hoy: 20 % menos');
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST' && c.path === `/chats/${CHAT}/scheduled-messages`)?.body as Record<string, unknown>;
    expect(post).toMatchObject({ kind: 'image', mediaUrl: drive.url, text: 'Solo por hoy: 20 % menos' });
    expect(typeof post.sendAt).toBe('string');
  });

  it('refuses a too-large file with Drive’s message before sending anything, and a removed file leaves a text message', async () => {
    const { calls } = fakeApi((call: FakeCall) =>
      call.method === 'POST' && call.path === `/chats/${CHAT}/scheduled-messages` ? { status: 201, body: base({}) } : undefined,
    );
    const user = userEvent.setup();
    renderApp(<ScheduleDialog chatId={CHAT} text="Hola Rosa" onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'grande.jpg', { type: 'image/jpeg' });
    await user.upload(within(dialog).getByLabelText('Archivo para el envío programado'), big);
    expect(within(dialog).getByText('El archivo supera 5 MB, el límite de WhatsApp para imágenes')).toBeTruthy();
    expect(FakeXhr.last).toBeUndefined();
    expect(within(dialog).queryByTestId('schedule-attachment')).toBeNull();

    FakeXhr.answer = { status: 201, body: { file: { ...drive, name: 'lista.pdf', kind: 'document', mimeType: 'application/pdf', url: 'https://demo.mostrador.pe/api/drive/files/x/lista.pdf' }, duplicate: false, msg: 'ok' } };
    await user.upload(within(dialog).getByLabelText('Archivo para el envío programado'), new File(['%PDF'], 'lista.pdf', { type: 'application/pdf' }));
    (FakeXhr.last as FakeXhr).respond();
    await within(dialog).findByTestId('schedule-attachment');
    expect(within(dialog).queryByText(/El archivo supera/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Quitar lista.pdf' }));
    expect(within(dialog).queryByTestId('schedule-attachment')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ kind: 'text', text: 'Hola Rosa' }));
    expect(calls.find((c) => c.method === 'POST')?.body).not.toHaveProperty('mediaUrl');
  });

  it('the strip names a scheduled file by its kind and name, with its caption', async () => {
    fakeApi((call) =>
      call.method === 'GET' && call.path === `/chats/${CHAT}/scheduled-messages`
        ? { status: 200, body: { payload: [base({ kind: 'document', mediaUrl: 'https://demo.mostrador.pe/api/drive/files/x/Lista%20de%20precios.pdf', text: 'Te paso la lista' })] } }
        : undefined,
    );
    renderApp(<ScheduledStrip chatId={CHAT} />);
    const strip = await screen.findByTestId('scheduled-strip');
    expect(await within(strip).findByText('Documento: Lista de precios.pdf — Te paso la lista')).toBeTruthy();
  });
});
