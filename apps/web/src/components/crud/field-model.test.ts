import { registerInput, resourceList, resources } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { fieldSpecOf, fieldSpecsOf } from './field-model';

const specsOf = (key: keyof typeof resources) => {
  const r = resources[key];
  return Object.fromEntries(fieldSpecsOf(r.fields, { refs: r.refs, writeOnly: r.writeOnly }).map((s) => [s.name, s]));
};

describe('fieldSpecsOf', () => {
  it('reads text, url, required and optional fields (brands)', () => {
    const s = specsOf('brands');
    expect(s.name).toMatchObject({ widget: 'text', required: true, maxLength: 120 });
    expect(s.logoUrl).toMatchObject({ widget: 'url', required: false });
  });

  it('reads a hex colour and a phone from their patterns', () => {
    expect(specsOf('colors').hex.widget).toBe('color');
    expect(specsOf('agentes').phone.widget).toBe('phone');
  });

  it('reads numbers, integers, enums with their values and booleans', () => {
    const p = specsOf('products');
    expect(p.price.widget).toBe('number');
    expect(p.stock.widget).toBe('integer');
    expect(specsOf('vendors').source).toMatchObject({ widget: 'enum', options: ['odoo', 'woocommerce', 'manual'] });
    expect(specsOf('agentes').active.widget).toBe('boolean');
  });

  it('reads refs (one id and lists of ids) with the resources they point at', () => {
    expect(specsOf('products').brandId).toMatchObject({ widget: 'ref', refs: ['brands'] });
    expect(specsOf('catalogs').productIds).toMatchObject({ widget: 'refs', refs: ['products'] });
    expect(specsOf('mostrador-labels').foreignLabelId.refs).toEqual(['ecommerces-categories', 'ecommerces-tags', 'mostrador-labels']);
  });

  it('reads write-only secrets, and a write-only object with its inner fields', () => {
    expect(specsOf('woocommerces').consumerKey.widget).toBe('secret');
    const credenciales = specsOf('telefonos').credenciales;
    expect(credenciales).toMatchObject({ widget: 'object', secret: true });
    expect(credenciales.fields?.map((f) => f.name)).toContain('refresh_token');
  });

  it('reads arrays of small objects as repeatable rows, and arrays of enums and texts', () => {
    const terms = specsOf('ecommerces-attributes').terms;
    expect(terms.widget).toBe('objects');
    expect(terms.fields?.map((f) => [f.name, f.required])).toEqual([
      ['_id', false],
      ['name', true],
    ]);
    expect(specsOf('telegram-routines').days.widget).toBe('enums');
    expect(specsOf('telegram-routines').time.widget).toBe('time');
    expect(specsOf('mailchimp-contacts').tags.widget).toBe('strings');
  });

  it('reads an ISO instant as a date-time and a long text as a textarea', () => {
    expect(specsOf('comments-without-responses').receivedAt.widget).toBe('datetime');
    expect(specsOf('comments-without-responses').message.widget).toBe('textarea');
  });

  it('reads e-mail through a pipe (registerInput.email) and a password', () => {
    expect(fieldSpecOf('email', registerInput.shape.email).widget).toBe('email');
    expect(fieldSpecOf('password', registerInput.shape.password, { writeOnly: ['password'] }).widget).toBe('secret');
  });

  it('gives every field of every declared resource an input (none falls back to raw JSON)', () => {
    for (const r of resourceList) {
      for (const spec of fieldSpecsOf(r.fields, { refs: r.refs, writeOnly: r.writeOnly })) {
        expect(spec.widget, `${r.key}.${spec.name}`).not.toBe('json');
        for (const inner of spec.fields ?? []) expect(inner.widget, `${r.key}.${spec.name}.${inner.name}`).not.toBe('json');
      }
    }
  });
});
