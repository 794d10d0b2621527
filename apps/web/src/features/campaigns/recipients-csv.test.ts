import type { RecipientOut } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { recipientsCsv } from './recipients-dialog';

const person = (over: Partial<RecipientOut>): RecipientOut => ({
  _id: 'r1',
  cleanLeadId: 'c1',
  name: 'María Quispe',
  telefono: '51987654321',
  status: 'read',
  attempts: 1,
  updatedAt: '2026-11-25T10:00:00Z',
  ...over,
});

describe('«Exportar CSV» of a chunk', () => {
  it('writes name, phone, status, reason and attempts, quoted where Excel needs it, with a BOM', async () => {
    const blob = recipientsCsv([
      person({}),
      person({ name: 'José "Pepe" Flores', status: 'failed', reason: '131026 · Mensaje no entregable, sin WhatsApp', attempts: 2 }),
      person({ name: 'Ana Ríos', telefono: undefined, status: 'skipped', reason: 'No tiene número de WhatsApp', attempts: 0 }),
    ]);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3)).split('\r\n')).toEqual([
      'nombre,telefono,estado,motivo,intentos',
      'María Quispe,51987654321,Leído,,1',
      '"José ""Pepe"" Flores",51987654321,Falló,"131026 · Mensaje no entregable, sin WhatsApp",2',
      'Ana Ríos,,Omitido,No tiene número de WhatsApp,0',
      '',
    ]);
  });

  it('before the chunk is sent, says who would receive it and who is left out', async () => {
    const blob = recipientsCsv([person({ status: 'queued', attempts: 0 }), person({ name: 'Ana Ríos', status: 'skipped', reason: 'Ya recibió esta campaña en otro bloque', attempts: 0 })], true);
    const text = new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()).slice(3));
    expect(text).toContain('María Quispe,51987654321,Lo recibiría,,0');
    expect(text).toContain('Ana Ríos,51987654321,Queda fuera,Ya recibió esta campaña en otro bloque,0');
  });
});
