import { formMessages, resources } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { fieldSpecsOf } from './field-model';
import { bodyOf, valuesOf } from './form-values';
import { serverFieldErrors, validateBody } from './validation';

describe('validateBody', () => {
  const r = resources.products;
  const specs = fieldSpecsOf(r.fields, { refs: r.refs });

  it('answers in Spanish: required, number, URL', () => {
    const values = { ...valuesOf(specs, undefined), price: 'caro', imageUrl: 'no-es-url' };
    const { success, errors } = validateBody(r.input, bodyOf(specs, values, 'create'), specs, values);
    expect(success).toBe(false);
    expect(errors.name).toBe(formMessages.required);
    expect(errors.sku).toBe(formMessages.required);
    expect(errors.price).toBe(formMessages.decimal);
    expect(errors.stock).toBe(formMessages.required);
    expect(errors.imageUrl).toBe('Debe ser una URL válida');
  });

  it('words checks the contract does not word itself', () => {
    const attributes = resources['ecommerces-attributes'];
    const s = fieldSpecsOf(attributes.fields);
    const values = { ...valuesOf(s, undefined), nombre: 'Talla', woocommerceId: '2', country: 'XX', terms: [{ _id: '', name: '' }] };
    const { errors } = validateBody(attributes.input, bodyOf(s, values, 'create'), s, values);
    expect(errors.country).toBe(formMessages.country);
    expect(errors['terms.0.name']).toBe(formMessages.required);
    for (const message of Object.values(errors)) expect(message).not.toMatch(/Invalid|expected/);
  });
});

describe('serverFieldErrors', () => {
  it('maps a 400 details list onto field paths', () => {
    const body = {
      errors: {
        code: 'VALIDATION',
        msg: 'name: Ya existe',
        details: [
          { path: 'name', msg: 'Ya existe una marca con ese nombre' },
          { path: 'terms.1.name', msg: 'Este campo es requerido' },
          { path: '', msg: 'General' },
        ],
      },
    };
    expect(serverFieldErrors(body)).toEqual({ name: 'Ya existe una marca con ese nombre', 'terms.1.name': 'Este campo es requerido' });
    expect(serverFieldErrors({ errors: { msg: 'x' } })).toEqual({});
  });
});
