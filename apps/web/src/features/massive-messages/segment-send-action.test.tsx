import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as segmentsScreen } from '../segments/marketing-segments-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const SEGMENT = '00000000-0000-4000-8000-000000000001';

describe('segments', () => {
  it('each row offers a massive message to it', async () => {
    fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { marketing: ['list', 'read', 'create', 'update', 'delete'] } } };
      if (call.method === 'GET' && call.path === '/marketing-segments')
        return { status: 200, body: pageOf([{ _id: SEGMENT, name: 'Clientes de Lima', filters: {}, createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z' }]) };
      return undefined;
    });
    renderApp(<ResourceListPage config={segmentsScreen} />, { route: '/marketing/segmentos' });
    const link = await screen.findByRole('link', { name: 'Enviar un mensaje masivo: Clientes de Lima' });
    expect(link.getAttribute('href')).toBe(`/marketing/massive-messages?segment=${SEGMENT}`);
  });
});
