import type { SessionUser } from '@mostrador/contract';
import { describe, expect, it, vi } from 'vitest';
import { clearSession, pickCompanyId, selectCompany, sessionKeys, sessionStore, setSession } from './session';
import { defaultPreferences, preferencesStore, setPreference } from './session-store';

const user: SessionUser = {
  _id: 'u-1',
  first_name: 'Ana',
  last_name: 'Administradora',
  email: 'admin@demo.com',
  token: 't',
  companyId: 'c-pe',
  corporation: {
    _id: 'corp',
    name: 'Demo',
    slug: 'demo',
    companies: [
      { company: { _id: 'c-cl', name: 'Demo Chile' }, default: false, role: 'admin' },
      { company: { _id: 'c-pe', name: 'Demo Perú' }, default: true, role: 'admin' },
    ],
  },
};

describe('session', () => {
  it('selects the default company on login and stores the session', () => {
    setSession({ token: 'tok', expiresIn: 900, user });
    expect(sessionStore.get().companyId).toBe('c-pe');
    expect(localStorage.getItem(sessionKeys.token)).toBe('tok');
    expect(Number(localStorage.getItem(sessionKeys.tokenExpiry))).toBeGreaterThan(Date.now());
    expect(JSON.parse(localStorage.getItem(sessionKeys.user) ?? '{}').email).toBe('admin@demo.com');
    expect(localStorage.getItem(sessionKeys.company)).toBe('c-pe');
  });

  it('keeps the selected company on refresh while it is still a membership', () => {
    setSession({ token: 'tok', expiresIn: 900, user });
    selectCompany('c-cl');
    setSession({ token: 'tok2', expiresIn: 900, user }, { keepCompany: true });
    expect(sessionStore.get().companyId).toBe('c-cl');
    expect(pickCompanyId(user, 'gone')).toBe('c-pe');
  });

  it('clears token, expiry, user and company on sign-out', () => {
    setSession({ token: 'tok', expiresIn: 900, user });
    clearSession();
    for (const key of Object.values(sessionKeys)) expect(localStorage.getItem(key)).toBeNull();
    expect(sessionStore.get()).toMatchObject({ token: null, user: null, companyId: null });
  });
});

describe('session store', () => {
  it('defaults itemsPerPage to 30 and persists changes', () => {
    expect(defaultPreferences.itemsPerPage).toBe(30);
    setPreference('itemsPerPage', 50);
    expect(preferencesStore.get().itemsPerPage).toBe(50);
    expect(JSON.parse(localStorage.getItem('sessionStore') ?? '{}').itemsPerPage).toBe(50);
  });

  it('keeps the Facebook access token in memory only, and the other Facebook preferences across reloads', () => {
    setPreference('facebookAccessToken', 'EAAB-secreto');
    setPreference('facebookName', 'Bodega Lucho');
    setPreference('selectedCommentFacebook', '712_998');
    expect(preferencesStore.get().facebookAccessToken).toBe('EAAB-secreto');
    const stored = localStorage.getItem('sessionStore') ?? '';
    expect(stored).not.toContain('EAAB-secreto');
    expect(JSON.parse(stored)).toMatchObject({ facebookName: 'Bodega Lucho', selectedCommentFacebook: '712_998', itemsPerPage: 50 });
    expect(Object.values(sessionStorage).join('')).not.toContain('EAAB-secreto');
  });

  it('drops a Facebook token an older build left in storage', async () => {
    localStorage.setItem('sessionStore', JSON.stringify({ itemsPerPage: 40, facebookAccessToken: 'EAAB-viejo' }));
    vi.resetModules();
    const fresh = await import('./session-store');
    expect(fresh.preferencesStore.get()).toMatchObject({ itemsPerPage: 40, facebookAccessToken: null });
    expect(localStorage.getItem('sessionStore')).not.toContain('EAAB-viejo');
  });
});
