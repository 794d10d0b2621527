import type { Page } from '@mostrador/contract';
import type { ResourceRecord } from '../../components/crud/types';
import { type FakeAnswer, type FakeCall, fakeApi, pageOf } from '../../test/fake-api';

/** Ids as the API writes them. */
export const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const agents = [
  { _id: uid(901), name: 'Ana Torres' },
  { _id: uid(902), name: 'Bruno Díaz' },
];
export const labels = [
  { _id: uid(801), name: 'Mayorista' },
  { _id: uid(802), name: 'Cliente frecuente' },
];
export const segments = [{ _id: uid(701), name: 'Compradores por WhatsApp' }];
export const audiences = [
  { _id: uid(601), name: 'Clientes recurrentes', facebookAudienceId: '23851234567890123' },
  { _id: uid(602), name: 'Mayoristas Lima' },
];

export function lead(n: number, extra: Partial<ResourceRecord> = {}): ResourceRecord {
  return {
    _id: uid(n),
    name: `Lead ${n}`,
    telefono: `5198700${String(n).padStart(4, '0')}`,
    platform: 'whatsapp',
    status: 'sin-asignar',
    mostradorLabels: [],
    createdAt: '2025-03-14T15:30:00Z',
    updatedAt: '2025-03-14T15:30:00Z',
    ...extra,
  };
}

const everything = { leads: ['list', 'read', 'create', 'update', 'delete'], marketing: ['list', 'read', 'create', 'update', 'delete'] };

/**
 * A fake API with leads (filtered by status, platform, agent), clean leads, the choices
 * (agents, labels, segments, audiences) and `more` for the rest.
 */
export function serveLeads(records: ResourceRecord[], more: (call: FakeCall) => FakeAnswer = () => undefined) {
  const rows = records.map((r) => ({ ...r }));
  const lists: Record<string, unknown[]> = {
    '/agentes': agents,
    '/mostrador-labels': labels,
    '/marketing-segments': segments,
    '/facebook-audiences': audiences,
  };
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: everything } };
    const list = lists[call.path];
    if (call.method === 'GET' && list) return { status: 200, body: pageOf(list) };
    if (call.method === 'GET' && call.path === '/leads') {
      const found = rows.filter((r) =>
        ['status', 'platform', 'agenteId'].every((field) => !call.query.get(field) || r[field] === call.query.get(field)),
      );
      const body: Page<ResourceRecord> = pageOf(found);
      return { status: 200, body };
    }
    if (call.method === 'PUT' && call.path.startsWith('/leads/')) {
      const row = rows.find((r) => call.path === `/leads/${r._id}`);
      if (!row) return undefined;
      Object.assign(row, call.body);
      return { status: 200, body: row };
    }
    return more(call);
  });
}
