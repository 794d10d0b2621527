import { describe, expect, it } from 'vitest';
import { isDecimal, zDecimal } from './decimal.js';
import { errorMessagesOf } from './error-messages.js';
import { pickLang } from './messages-es.js';
import { loginInput, registerCorporationForm } from './auth.js';

describe('decimal rule (SPEC §5)', () => {
  it.each([
    ['12', {}, true],
    ['-12.50', {}, true],
    ['+3.14159', {}, true],
    ['1e10', {}, true],
    ['2.5E-3', {}, true],
    ['', {}, false],
    ['  ', {}, false],
    ['abc', {}, false],
    ['1.', {}, false],
    ['.5', {}, false],
    ['1.234', { decimals: 2 }, false],
    ['1.23', { decimals: 2 }, true],
    ['7', { decimals: 0 }, true],
    ['7.0', { decimals: 0 }, false],
    ['3,5', { separator: ',' }, true],
    ['3.5', { separator: ',' }, false],
  ] as const)('%s with %o → %s', (value, options, expected) => {
    expect(isDecimal(value, options)).toBe(expected);
  });

  it('answers with the spec message', () => {
    const r = zDecimal().safeParse('x');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('Este campo debe ser un número válido');
  });
});

describe('shared schemas', () => {
  it('login messages', () => {
    const r = loginInput.safeParse({ email: 'mal', password: '', corporation: 'Demo' });
    const messages = Object.fromEntries(r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? []);
    expect(messages).toEqual({ email: 'Este campo debe ser un email válido', password: 'Este campo es requerido' });
    expect(loginInput.parse({ email: ' Admin@Demo.com ', password: 'x', corporation: 'DEMO' })).toEqual({
      email: 'admin@demo.com',
      password: 'x',
      corporation: 'demo',
    });
  });

  it('confirmation message', () => {
    const r = registerCorporationForm.safeParse({
      corporationName: 'A',
      corporation: 'a',
      companyName: 'A',
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.co',
      password: '12345678',
      passwordConfirmation: '87654321',
    });
    expect(r.error?.issues).toEqual([expect.objectContaining({ path: ['passwordConfirmation'], message: 'Las contraseñas no concuerdan' })]);
  });
});

describe('language and errors', () => {
  it('takes the first two letters of the browser language, falling back to es', () => {
    expect(pickLang('en-US,en;q=0.9')).toBe('en');
    expect(pickLang('es-PE')).toBe('es');
    expect(pickLang('fr-FR')).toBe('es');
    expect(pickLang(undefined)).toBe('es');
  });

  it('lists the messages of an error body', () => {
    expect(errorMessagesOf({ errors: { code: 'VALIDATION', msg: 'Datos', details: [{ path: 'email', msg: 'Mal' }] } })).toEqual([
      'Datos',
      'Correo electrónico: Mal',
    ]);
    expect(errorMessagesOf({ errors: [{ msg: 'uno' }, { msg: 'dos' }] })).toEqual(['uno', 'dos']);
    expect(errorMessagesOf('nada')).toEqual([]);
  });
});

describe('confirmation', () => {
  it('tells a mismatch at once, even while other fields are still invalid', () => {
    const r = registerCorporationForm.safeParse({ email: 'mal', password: '12345678', passwordConfirmation: 'otra' });
    const paths = r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(paths).toContain('passwordConfirmation: Las contraseñas no concuerdan');
    expect(paths).toContain('email: Este campo debe ser un email válido');
  });
});
