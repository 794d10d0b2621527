import { describe, expect, it } from 'vitest';
import { browserLocale, displayLocale, t } from '.';

describe('t', () => {
  it('reads the Spanish dictionary, contract messages included', () => {
    expect(t('login.submit')).toBe('Ingresar');
    expect(t('form.required')).toBe('Este campo es requerido');
    expect(t('success.welcome')).toBe('Bienvenido');
  });

  it('replaces {{name}} placeholders and keeps unknown ones', () => {
    expect(t('register.doneIdentifier', { slug: 'tiendas-sol' })).toBe('Identificador para iniciar sesión: tiendas-sol');
    expect(t('register.expiresAt', {})).toBe('Este enlace vence el {{date}}');
  });

  it('answers the key itself for a key that is not in the dictionary', () => {
    expect(t('nope.missing' as never)).toBe('nope.missing');
  });

  it('takes the locale from the browser language, es by default', () => {
    expect(browserLocale('en-US')).toBe('en');
    // dates and numbers stay Spanish in a Spanish interface
    expect(displayLocale('en-US')).toBe('es-PE');
    expect(displayLocale('es-CL')).toBe('es-CL');
    expect(browserLocale('')).toBe('es');
  });
});
