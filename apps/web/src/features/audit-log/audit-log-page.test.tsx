import type { AuditEntry } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AuditLogPage } from './audit-log-page';

const entry = (n: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  _id: String(n),
  at: '2026-12-02T15:00:00.000Z',
  actor: { type: 'user', id: '00000000-0000-4000-8000-000000000001', name: 'Ana Administradora' },
  action: 'update',
  entity: 'leads',
  entityId: `lead-${n}`,
  changes: { name: { from: `Antes ${n}`, to: `Después ${n}` } },
  ip: '203.0.113.7',
  userAgent: 'Firefox',
  ...over,
});
const permissions = { audit: ['list'] };

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('AuditLogPage (/auditoria)', () => {
  it('shows who, what, the fields before → after and the IP, loads more by cursor, and sends the URL filters', async () => {
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
      if (call.path === '/audit-log') {
        if (call.query.get('cursor') === 'next')
          return { status: 200, body: { payload: [entry(2, { actor: { type: 'api_key', id: 'k1', name: 'Clave de API «ERP» (mst_abc…)' }, action: 'create', changes: { apiKey: { from: null, to: '••••' } } })] } };
        return { status: 200, body: { payload: [entry(1)], nextCursor: 'next' } };
      }
      return { status: 404, body: {} };
    });
    renderApp(<AuditLogPage />, { route: '/auditoria?entity=leads&entityId=lead-1' });
    const table = await screen.findByRole('table', { name: 'Registro de auditoría' });
    expect(within(table).getByText('Ana Administradora')).toBeTruthy();
    expect(within(table).getByText('Modificó · Leads')).toBeTruthy();
    expect(within(table).getByText(/Antes 1 → Después 1/)).toBeTruthy();
    expect(within(table).getByText('203.0.113.7')).toBeTruthy();
    const first = api.calls.find((c) => c.path === '/audit-log');
    expect(first?.query.get('entity')).toBe('leads');
    expect(first?.query.get('entityId')).toBe('lead-1');

    await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Clave de API «ERP» (mst_abc…)')).toBeTruthy();
    expect(screen.getByText(/— → ••••/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
  });

  it('says when nothing matches, and when the log cannot be loaded', async () => {
    let fail = false;
    fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
      if (fail) return { status: 500, body: { errors: { msg: 'Error interno' } } };
      return { status: 200, body: { payload: [] } };
    });
    const { unmount } = renderApp(<AuditLogPage />, { route: '/auditoria' });
    expect(await screen.findByText('No hay movimientos con estos filtros.')).toBeTruthy();
    unmount();
    fail = true;
    renderApp(<AuditLogPage />, { route: '/auditoria?entity=users' });
    expect(await screen.findByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
