import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { screen as telefonosScreen } from './telefonos-screen';
import { PhoneContactsPage, phoneLabel } from './phone-contacts-page';

const PHONE = '00000000-0000-4000-8000-000000000001';
const OTHER_PHONE = '00000000-0000-4000-8000-000000000002';
const at = '2025-01-01T00:00:00Z';
const phone = { _id: PHONE, numero: '51987654321', createdAt: at, updatedAt: at };
const contact = { _id: '00000000-0000-4000-8000-0000000000c1', nombre: 'Carmen Vargas', telefono: '51999111222', telefonoId: PHONE, createdAt: at, updatedAt: at };
const everything = { leads: ['list', 'read', 'create', 'update', 'delete'], integrations: ['list', 'read'] };

function serve({ phoneExists = true } = {}) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: everything } };
    if (call.method === 'GET' && call.path === `/telefonos/${PHONE}`) return phoneExists ? { status: 200, body: phone } : undefined;
    if (call.method === 'GET' && call.path === '/telefonos') return { status: 200, body: pageOf([phone, { ...phone, _id: OTHER_PHONE, numero: '51911111111' }]) };
    if (call.method === 'GET' && call.path === '/contactos') {
      return { status: 200, body: pageOf(call.query.get('telefonoId') === PHONE ? [contact] : []) };
    }
    if (call.method === 'POST' && call.path === '/contactos') {
      return { status: 201, body: { ...(call.body as object), _id: '00000000-0000-4000-8000-0000000000c2', createdAt: at, updatedAt: at } };
    }
    if (call.method === 'DELETE') return { status: 200, body: { status: 200, _id: call.path.split('/').pop() } };
    return undefined;
  });
}

const renderPage = () =>
  renderApp(
    <Routes>
      <Route path="/telefonos/contactos/:id" element={<PhoneContactsPage />} />
    </Routes>,
    { route: `/telefonos/contactos/${PHONE}` },
  );

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('/telefonos/contactos/{id}', () => {
  it("shows the phone's number and lists only its contacts (GET /contactos?telefonoId=…)", async () => {
    const { calls } = serve();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Contactos de +51 987 654 321', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Carmen Vargas')).toBeTruthy();
    const lists = calls.filter((c) => c.method === 'GET' && c.path === '/contactos');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.query.get('telefonoId')).toBe(PHONE);
    // the phone is the page: no column for it
    expect(screen.queryByRole('columnheader', { name: 'Teléfono de la empresa' })).toBeNull();
  });

  it('creates a contact on this phone and deletes with the body {telefonoId}', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Nuevo contacto' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo contacto' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Eduardo Chávez');
    await user.type(within(dialog).getByLabelText(/^Teléfono \*?$/), '51988222333');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ nombre: 'Eduardo Chávez', telefono: '51988222333', telefonoId: PHONE });

    await user.click(await screen.findByRole('button', { name: 'Eliminar: Carmen Vargas' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Advertencia' })).getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ telefonoId: PHONE }));
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/contactos/${contact._id}`);
  });

  it('says so when the phone is not of this company', async () => {
    serve({ phoneExists: false });
    renderPage();
    expect(await screen.findByTestId('phone-missing')).toBeTruthy();
  });

  it('is reached from each row of /telefonos', () => {
    expect(telefonosScreen.detail?.label).toBe('Contactos');
    expect(telefonosScreen.detail?.path({ _id: PHONE })).toBe(`/telefonos/contactos/${PHONE}`);
    expect(phoneLabel('573001234567')).toBe('+57 300 123 4567');
  });
});
