import { type GravityEntryOut, type GravityFormStatus, gravityMessages } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { GravityEntriesPanel, GravityFormState, GravityFormSummary } from './form-extras';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

const admin = { marketing: ['list', 'read', 'create', 'update', 'delete'] };
const form: ResourceRecord = {
  _id: 'form-1',
  name: 'Contacto web',
  formId: 5,
  siteUrl: 'https://misitio.pe',
  consumerKeySet: true,
  consumerSecretSet: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const status = (over: Partial<GravityFormStatus> = {}): GravityFormStatus => ({
  formId: 'form-1',
  webhookPath: '/api/webhooks/gravity-forms/form-1',
  webhookSecretSet: false,
  fieldsKnown: 0,
  sync: { formId: 'form-1', status: 'idle', total: 0, done: 0, created: 0, merged: 0, rejected: 0, requests: 0, lastEntryId: 0 },
  entries: { total: 3, created: 1, merged: 1, rejected: 1, pending: 0 },
  sandbox: false,
  ...over,
});
const entry = (over: Partial<GravityEntryOut>): GravityEntryOut => ({
  _id: `e-${over.entryId ?? 1}`,
  formId: 'form-1',
  formName: 'Contacto web',
  entryId: 1,
  source: 'webhook',
  status: 'created',
  receivedAt: '2026-11-20T15:00:00.000Z',
  ...over,
});

function serve(entries: GravityEntryOut[] | 'error' = [], now: { status?: GravityFormStatus } = {}) {
  let current = status();
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
    if (call.path === '/gravity-forms/entries') return entries === 'error' ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error' } } } : { status: 200, body: { payload: entries } };
    if (call.path === '/gravity-forms/form-1/status') return { status: 200, body: now.status ?? current };
    if (call.path === '/gravity-forms/form-1/fields') {
      return {
        status: 200,
        body: {
          title: 'Contáctanos',
          fields: [
            { id: '1', label: 'Nombre', type: 'name' },
            { id: '3', label: 'Email', type: 'email' },
            { id: '4', label: 'Celular', type: 'phone' },
            { id: '8', label: 'Número alterno', type: 'text' },
          ],
          suggested: { name: '1', email: '3', phone: '4' },
        },
      };
    }
    if (call.method === 'PUT' && call.path === '/gravity-forms/form-1') return { status: 200, body: { ...form, msg: 'Registro actualizado con éxito' } };
    if (call.method === 'POST' && call.path === '/gravity-forms/form-1/test') return { status: 200, body: { ok: false, field: 'formId', msg: 'El sitio no tiene el formulario 5: revisa el id del formulario' } };
    if (call.method === 'POST' && call.path === '/gravity-forms/form-1/webhook-secret') {
      current = status({ webhookSecretSet: true, webhookSecretHint: '…wxyz', webhookSecretAt: '2026-11-26T10:00:00.000Z' });
      return { status: 200, body: { secret: 'gfw_abcwxyz', header: 'Authorization', value: 'Bearer gfw_abcwxyz', webhookPath: '/api/webhooks/gravity-forms/form-1' } };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/gravity-forms', () => {
  it('lists the newest entries with the lead each made or why it made none', async () => {
    serve([
      entry({ entryId: 3, name: 'Rosa Quispe', telefono: '51987654321', status: 'created', leadId: 'lead-1', leadName: 'Rosa Quispe' }),
      entry({ entryId: 2, name: 'Sin Datos', status: 'rejected', reason: gravityMessages.noContact, eventId: 'ev-2' }),
    ]);
    renderApp(<GravityEntriesPanel />);
    const rows = await screen.findAllByTestId('gravity-entry');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Lead creado')).toBeTruthy();
    expect(within(rows[0]).getByRole('link', { name: 'Ver lead: Rosa Quispe' }).getAttribute('href')).toBe('/lead/todos?q=51987654321');
    expect(within(rows[1]).getByText(gravityMessages.noContact)).toBeTruthy();
    expect(within(rows[1]).getByRole('link', { name: 'Reintentar en Eventos fallidos' })).toBeTruthy();
  });

  it('shows an entry the webhook brings, and the form\'s counts, as soon as the server says it is settled', async () => {
    const entries: GravityEntryOut[] = [];
    const now: { status?: GravityFormStatus } = {};
    serve(entries, now);
    renderApp(
      <>
        <GravityFormState form={form} />
        <GravityEntriesPanel />
      </>,
    );
    expect(await screen.findByText(/Aún no llegan entradas/)).toBeTruthy();
    expect(await screen.findByText(/1 lead nuevo · 1 sumadas a leads · 1 rechazadas/)).toBeTruthy();

    // the site posts an entry; the server makes its lead and says so once it committed
    entries.push(entry({ entryId: 41, name: 'Marta Quispe', telefono: '51987333444', status: 'created', leadId: 'lead-41', leadName: 'Marta Quispe' }));
    now.status = status({ entries: { total: 4, created: 2, merged: 1, rejected: 1, pending: 0 } });
    await emit({ type: 'gravity.entry', formId: 'form-1', entryId: 41, status: 'created' });

    const [row] = await screen.findAllByTestId('gravity-entry', {}, { timeout: 3000 });
    expect(within(row).getByText('Marta Quispe · +51987333444')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Ver lead: Marta Quispe' })).toBeTruthy();
    expect(await screen.findByText(/2 leads nuevos · 1 sumadas a leads · 1 rechazadas/, {}, { timeout: 3000 })).toBeTruthy();
  });

  it('says when there are no entries yet, and offers to retry when they could not be read', async () => {
    serve([]);
    const { unmount } = renderApp(<GravityEntriesPanel />);
    expect(await screen.findByText(/Aún no llegan entradas/)).toBeTruthy();
    unmount();
    serve('error');
    renderApp(<GravityEntriesPanel />);
    expect(await screen.findByText('No se pudieron cargar las entradas.', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  it('maps the fields from the form as the site gives them and saves the mapping', async () => {
    const { calls } = serve();
    renderApp(<GravityFormSummary form={form} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Campos: Contacto web' }));
    const phone = await screen.findByRole('combobox', { name: 'Teléfono' });
    await waitFor(() => expect(phone.textContent).toContain('Celular (4)'));
    await userEvent.click(phone);
    await userEvent.click(await screen.findByRole('option', { name: 'Número alterno (8)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar campos' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ fieldMap: { name: '1', email: '3', phone: '8' } });
  });

  it('shows the webhook secret once, then only that one is kept', async () => {
    serve();
    renderApp(<GravityFormSummary form={form} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Webhook: Contacto web' }));
    expect(await screen.findByText(/aún no tiene secreto/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Generar secreto' }));
    expect(((await screen.findByTestId('gravity-webhook-secret')) as HTMLInputElement).value).toBe('Bearer gfw_abcwxyz');
    expect((screen.getByTestId('gravity-webhook-url') as HTMLInputElement).value).toMatch(/\/api\/webhooks\/gravity-forms\/form-1$/);
    await userEvent.click(screen.getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Webhook: Contacto web' }));
    expect(await screen.findByText(/Secreto guardado \(…wxyz\)/)).toBeTruthy();
    expect(screen.queryByTestId('gravity-webhook-secret')).toBeNull();
  });

  it('names the setting to fix after a failed connection test', async () => {
    serve();
    renderApp(<GravityFormSummary form={form} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Probar conexión: Contacto web' }));
    expect(await screen.findByText('El sitio no tiene el formulario 5: revisa el id del formulario')).toBeTruthy();
    expect(screen.getByText(/Revisa el id del formulario con «Editar»/)).toBeTruthy();
    // the URL and the keys worked, the form id is what to fix
    const checks = within(screen.getByRole('list', { name: 'Comprobaciones' })).getAllByRole('listitem');
    expect(checks.map((c) => [c.textContent, c.getAttribute('data-state')])).toEqual([
      ['URL del sitioResponde como un WordPress con Gravity Forms', 'ok'],
      ['Claves de la API RESTVálidas, con permiso de lectura', 'ok'],
      ['Id del formularioEl sitio no tiene ese formulario', 'bad'],
    ]);
  });

  it('shows the keys, the webhook and what the entries became', async () => {
    serve();
    renderApp(<GravityFormState form={form} />);
    expect(await screen.findByText('Claves guardadas')).toBeTruthy();
    expect(await screen.findByText('Webhook sin secreto')).toBeTruthy();
    expect(screen.getByText(/1 lead nuevo · 1 sumadas a leads · 1 rechazadas/)).toBeTruthy();
  });
});
