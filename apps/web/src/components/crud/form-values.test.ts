import { resources } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { fieldSpecsOf } from './field-model';
import { bodyOf, changesOf, isoToLocalInput, localInputToIso, valuesOf } from './form-values';

const specsOf = (key: keyof typeof resources) => {
  const r = resources[key];
  return fieldSpecsOf(r.fields, { refs: r.refs, writeOnly: r.writeOnly });
};

describe('form values', () => {
  it('starts a create with empty inputs and schema defaults', () => {
    const values = valuesOf(specsOf('products'), undefined);
    expect(values).toMatchObject({ name: '', price: '', stock: '', brandId: '' });
  });

  it('sends numbers as numbers and leaves empty optional fields out on create', () => {
    const specs = specsOf('products');
    const body = bodyOf(specs, { ...valuesOf(specs, undefined), name: 'Inca Kola', sku: 'ik-1', price: '7,50', stock: '3' }, 'create');
    expect(body).toEqual({ name: 'Inca Kola', sku: 'ik-1', price: 7.5, stock: 3 });
  });

  it('sends text that is not a number as typed, so the schema answers in Spanish', () => {
    const specs = specsOf('products');
    expect(bodyOf(specs, { ...valuesOf(specs, undefined), price: 'siete' }, 'create').price).toBe('siete');
  });

  it('edits only what changed, clears an emptied optional text, and sends an emptied required one as empty', () => {
    const specs = specsOf('brands');
    const record = { _id: '1', name: 'Gloria', description: 'Lácteos', logoUrl: 'https://x.pe/l.png' };
    const initial = valuesOf(specs, record);
    expect(changesOf(specs, { ...initial, description: 'Leche' }, initial)).toEqual({ description: 'Leche' });
    expect(changesOf(specs, { ...initial, description: '' }, initial)).toEqual({ description: '' });
    expect(changesOf(specs, { ...initial, name: '' }, initial)).toEqual({ name: '' });
    expect(changesOf(specs, initial, initial)).toEqual({});
  });

  it('keeps a secret left empty and sends a typed one', () => {
    const specs = specsOf('woocommerces');
    const initial = valuesOf(specs, { _id: '1', name: 'Tienda', consumerKeySet: true });
    expect(initial.consumerKey).toBe('');
    expect(changesOf(specs, initial, initial)).toEqual({});
    expect(changesOf(specs, { ...initial, consumerKey: 'ck_nuevo' }, initial)).toEqual({ consumerKey: 'ck_nuevo' });
  });

  it('builds arrays of small objects row by row', () => {
    const specs = specsOf('ecommerces-attributes');
    const values = { ...valuesOf(specs, undefined), nombre: 'Talla', terms: [{ _id: '', name: 'S' }, { _id: '7', name: 'M' }] };
    expect(bodyOf(specs, values, 'create').terms).toEqual([{ name: 'S' }, { _id: '7', name: 'M' }]);
  });

  it('leaves a write-only object out when none of its fields was typed', () => {
    const specs = specsOf('telefonos');
    const initial = valuesOf(specs, { _id: '1', numero: '51987654321', credencialesSet: true });
    expect(changesOf(specs, initial, initial)).toEqual({});
    const typed = { ...initial, credenciales: { ...(initial.credenciales as object), clientId: 'abc' } };
    expect(changesOf(specs, typed, initial)).toEqual({ credenciales: { clientId: 'abc' } });
  });

  it('round-trips an instant through the datetime-local input', () => {
    const local = isoToLocalInput('2025-03-14T15:30:00Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(localInputToIso(local)).toBe('2025-03-14T15:30:00Z');
    expect(isoToLocalInput('no es fecha')).toBe('');
  });
});
