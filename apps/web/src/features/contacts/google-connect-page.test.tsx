import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@mostrador/contract';
import { AppShell } from '../../app/layout/app-shell';
import { landingPath } from '../../lib/landing';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';

/** The first render loads MUI and the page: slow on a shared machine. */
const wait = { timeout: 8000 };
import { GoogleConnectPage } from './google-connect-page';

const consent = vi.hoisted(() => vi.fn());
vi.mock('./api', async (original) => ({ ...(await original<typeof import('./api')>()), goToConsent: consent }));

const PHONE = '00000000-0000-4000-8000-000000000001';
const CLIENT_ID = '1234567890-abc.apps.googleusercontent.com';
const SECRET = 'GOCSPX-noDebeQuedarEnLaDireccion';
const at = '2025-01-01T00:00:00Z';
const CONSENT = 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x&state=y';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function serve(credentials: (call: FakeCall) => { status: number; body: unknown } = () => ({ status: 200, body: { msg: 'ok', url: CONSENT } })) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { integrations: ['list', 'read', 'update'] } } };
    if (call.method === 'GET' && call.path === `/telefonos/${PHONE}`) return { status: 200, body: { _id: PHONE, numero: '51987654321', createdAt: at, updatedAt: at } };
    if (call.method === 'POST' && call.path === `/google-people/phones/${PHONE}/credentials`) return credentials(call);
    return undefined;
  });
}

const renderAt = (route: string) =>
  renderApp(
    <>
      <Routes>
        <Route path="/telefonos/googlepeople/:id/:clientId/:clientSecret" element={<GoogleConnectPage />} />
        <Route path="/telefonos/googlepeople/:id" element={<GoogleConnectPage />} />
      </Routes>
      <Where />
    </>,
    { route },
  );

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  consent.mockReset();
});
afterEach(() => vi.restoreAllMocks());

describe('/telefonos/googlepeople/{id}/{clientId}/{clientSecret}', () => {
  it('takes the credentials out of the address first, posts them once, and goes to Google’s consent', async () => {
    const { calls } = serve();
    const replaced = vi.spyOn(window.history, 'replaceState');
    renderAt(`/telefonos/googlepeople/${PHONE}/${CLIENT_ID}/${SECRET}`);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/telefonos/googlepeople/${PHONE}`), wait);
    // the browser's own entry too (a router mounted earlier, as in the app, follows it with its replace)
    expect(replaced.mock.calls.some((c) => c[2] === `/telefonos/googlepeople/${PHONE}`)).toBe(true);
    await waitFor(() => expect(consent).toHaveBeenCalledWith(CONSENT), wait);
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual({ clientId: CLIENT_ID, clientSecret: SECRET });
    // no other call carried them
    expect(calls.filter((c) => c !== posts[0]).some((c) => JSON.stringify(c).includes(SECRET))).toBe(false);
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('says in Spanish what the server refused and offers the form', async () => {
    serve(() => ({ status: 400, body: { errors: { code: 'VALIDATION', msg: 'Client secret: El Client secret no tiene esa forma: es como GOCSPX-… sin espacios' } } }));
    renderAt(`/telefonos/googlepeople/${PHONE}/${CLIENT_ID}/mal%20secreto`);
    expect(await screen.findByText(/El Client secret no tiene esa forma/, undefined, wait)).toBeTruthy();
    expect(consent).not.toHaveBeenCalled();
    expect(screen.getByTestId('where').textContent).toBe(`/telefonos/googlepeople/${PHONE}`);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Conectar con Google' }));
    expect(await screen.findByRole('dialog', { name: /Conectar con Google/ }, wait)).toBeTruthy();
  });

  it('opened on the clean address (Back, a reload) asks again and posts nothing', async () => {
    const { calls } = serve();
    renderAt(`/telefonos/googlepeople/${PHONE}`);
    expect(await screen.findByRole('button', { name: 'Conectar con Google' }, wait)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('the shell never remembers the address with the secret: the next sign-in lands on /telefonos', async () => {
    serve();
    const user = { _id: 'u-1', first_name: 'Ana', last_name: 'Admin', email: 'admin@demo.com', corporation: { _id: 'corp', name: 'Demo', slug: 'demo', companies: [] } };
    sessionStore.set((s) => ({ ...s, user: user as unknown as SessionUser }));
    const written: string[] = [];
    const setItem = Storage.prototype.setItem;
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string, value: string) {
      written.push(`${key}=${value}`);
      setItem.call(this, key, value);
    });
    renderApp(
      <Routes>
        <Route element={<AppShell />}>
          <Route path="/telefonos/googlepeople/:id/:clientId/:clientSecret" element={<GoogleConnectPage />} />
          <Route path="/telefonos/googlepeople/:id" element={<GoogleConnectPage />} />
        </Route>
      </Routes>,
      { route: `/telefonos/googlepeople/${PHONE}/${CLIENT_ID}/${SECRET}` },
    );
    await waitFor(() => expect(consent).toHaveBeenCalled(), wait);
    expect(written.filter((w) => w.includes(SECRET))).toEqual([]);
    expect(localStorage.getItem('lastScreen.u-1')).toBe('/telefonos');
    // one an older version kept is replaced when it is read
    localStorage.setItem('lastScreen.u-1', `/telefonos/googlepeople/${PHONE}/${CLIENT_ID}/${SECRET}`);
    expect(landingPath(user as unknown as SessionUser, null)).toBe('/telefonos');
    expect(localStorage.getItem('lastScreen.u-1')).toBe('/telefonos');
  });
});
