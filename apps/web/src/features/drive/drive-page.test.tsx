import type { DriveFileOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedbackStore } from '../../lib/feedback';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { FakeXhr } from '../../test/fake-xhr';
import { renderApp } from '../../test/render';
import { DrivePage } from './drive-page';

vi.setConfig({ testTimeout: 20_000 });

const file = (id: string, name: string, extra: Partial<DriveFileOut> = {}): DriveFileOut => ({
  _id: id,
  name,
  folder: 'Productos',
  mimeType: 'image/png',
  kind: 'image',
  size: 1_258_291,
  sha256: id.padEnd(64, '0'),
  path: `/api/drive/files/${id}/${encodeURIComponent(name)}`,
  url: `https://mostrador.test/api/drive/files/${id}/${encodeURIComponent(name)}`,
  uploadedBy: { _id: 'u1', name: 'Ana Admin' },
  createdAt: '2026-11-20T15:00:00Z',
  ...extra,
});
const photo = file('abcdefghijklmnopqrstuvwx', 'Zapatilla roja.png');
const prices = file('bcdefghijklmnopqrstuvwxy', 'Lista de precios.pdf', { folder: 'Precios', mimeType: 'application/pdf', kind: 'document', size: 20_480 });
const everything = { messaging: ['list', 'read', 'create', 'update', 'delete'] };
const folders = { payload: [{ name: 'Precios', files: 1 }, { name: 'Productos', files: 1 }] };

function serve({ permissions = everything as object, files = [photo, prices], failFirst = false } = {}) {
  let listed = 0;
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.path === '/drive/folders') return { status: 200, body: folders };
    if (call.path === '/drive/files' && call.method === 'GET') {
      listed += 1;
      if (failFirst && listed === 1) return { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error interno' } } };
      const folder = call.query.get('folder');
      const filter = call.query.get('filter')?.toLowerCase();
      const shown = files.filter((f) => (folder === null || f.folder === folder) && (!filter || f.name.toLowerCase().includes(filter)));
      return { status: 200, body: pageOf(shown, { limit: 24 }) };
    }
    if (call.method === 'DELETE') return { status: 200, body: { msg: '«Zapatilla roja.png» eliminado de Drive: su enlace deja de funcionar' } };
    if (call.method === 'PATCH') return { status: 200, body: { ...photo, ...(call.body as object) } };
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token-1', companyId: 'company-1' }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.last = undefined;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('/drive', () => {
  it('shows the files with their thumbnail, size, uploader and folder, and filters by search and folder', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderApp(<DrivePage />);
    const grid = await screen.findByRole('list', { name: 'Archivos' });
    const card = within(grid).getByRole('listitem', { name: 'Zapatilla roja.png' });
    expect(within(card).getByText('Imagen · 1,2 MB')).toBeTruthy();
    expect(within(card).getByText(/Ana Admin/)).toBeTruthy();
    expect(card.querySelector('img')?.getAttribute('src')).toBe(photo.path);
    expect(within(grid).getByRole('listitem', { name: 'Lista de precios.pdf' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Precios (1)' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Archivos' })).queryByText('Zapatilla roja.png')).toBeNull());
    expect(calls.some((c) => c.path === '/drive/files' && c.query.get('folder') === 'Precios')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Todas' }));
    await user.type(screen.getByRole('textbox', { name: 'Buscar en Drive' }), 'zapa');
    await waitFor(() => expect(calls.some((c) => c.path === '/drive/files' && c.query.get('filter') === 'zapa')).toBe(true));

    // the list view shows the same files as rows
    await user.click(screen.getByRole('button', { name: 'Ver como lista' }));
    const table = await screen.findByRole('table', { name: 'Archivos' });
    expect(within(table).getByText('Zapatilla roja.png')).toBeTruthy();
  });

  it('uploads a chosen file with its progress into the folder shown, and refuses a too-large image before sending it', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderApp(<DrivePage />);
    await screen.findByRole('list', { name: 'Archivos' });
    await user.click(screen.getByRole('button', { name: 'Productos (1)' }));
    FakeXhr.answer = { status: 201, body: { file: photo, duplicate: false, msg: '«oferta.png» subido a Drive' } };
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'oferta.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Archivos para subir'), image);
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/drive/files?name=oferta.png&folder=Productos');
    expect(xhr.headers['content-type']).toBe('image/png');
    expect(xhr.headers.authorization).toBe('Bearer token-1');
    expect(xhr.body).toBe(image);
    const bar = await screen.findByRole('progressbar', { name: 'Subiendo oferta.png' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    const listsBefore = calls.filter((c) => c.path === '/drive/files').length;
    xhr.respond();
    expect(await screen.findByText('«oferta.png» subido a Drive')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.path === '/drive/files').length).toBeGreaterThan(listsBefore));

    FakeXhr.last = undefined;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'grande.jpg', { type: 'image/jpeg' });
    await user.upload(screen.getByLabelText('Archivos para subir'), big);
    expect((await screen.findByRole('alert')).textContent).toBe('El archivo supera 5 MB, el límite de WhatsApp para imágenes');
    expect(FakeXhr.last).toBeUndefined();
  });

  it('renames, moves, copies the link and deletes after confirming', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    // after userEvent.setup(), which puts its own clipboard in place
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(<DrivePage />);
    await screen.findByRole('list', { name: 'Archivos' });

    await user.click(screen.getByRole('button', { name: 'Copiar enlace de Zapatilla roja.png' }));
    expect(writeText).toHaveBeenCalledWith(photo.url);
    await waitFor(() => expect(feedbackStore.get().success?.message).toBe('Enlace copiado'));

    await user.click(screen.getByRole('button', { name: 'Más acciones de Zapatilla roja.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Renombrar' }));
    const rename = await screen.findByRole('dialog', { name: 'Renombrar archivo' });
    const name = within(rename).getByRole('textbox', { name: 'Nombre' });
    await user.clear(name);
    await user.type(name, 'Zapatilla roja 2026.png');
    await user.click(within(rename).getByRole('button', { name: 'Renombrar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Zapatilla roja 2026.png' }));
    expect(calls.find((c) => c.method === 'PATCH')?.path).toBe(`/drive/files/${photo._id}`);

    await user.click(await screen.findByRole('button', { name: 'Más acciones de Zapatilla roja.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Mover a una carpeta' }));
    const move = await screen.findByRole('dialog', { name: 'Mover a una carpeta' });
    const folder = within(move).getByRole('combobox', { name: 'Carpeta' });
    await user.clear(folder);
    await user.type(folder, 'Catálogos');
    await user.click(within(move).getByRole('button', { name: 'Mover' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ folder: 'Catálogos' }));

    await user.click(await screen.findByRole('button', { name: 'Más acciones de Zapatilla roja.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Eliminar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Eliminar archivo' });
    expect(within(confirm).getByText(/su enlace deja de funcionar/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/drive/files/${photo._id}`));
  });

  it('says when Drive is empty, and offers «Reintentar» when the list cannot be read', async () => {
    serve({ failFirst: true, files: [] });
    const user = userEvent.setup();
    renderApp(<DrivePage />);
    const alert = await screen.findByText('No se pudieron leer los archivos de Drive.');
    await user.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Todavía no hay archivos en Drive.')).toBeTruthy();
  });

  it('shows no upload, rename or delete to a role that may only pick files', async () => {
    serve({ permissions: { messaging: ['list', 'read'] } });
    const user = userEvent.setup();
    renderApp(<DrivePage />);
    await screen.findByRole('list', { name: 'Archivos' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Subir archivos' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Más acciones de Zapatilla roja.png' }));
    expect(await screen.findByRole('menuitem', { name: 'Copiar enlace' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Eliminar' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Renombrar' })).toBeNull();
  });
});
