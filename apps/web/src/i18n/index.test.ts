import { describe, expect, it } from 'vitest';
import { browserLocale, t } from '.';

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
    expect(browserLocale('')).toBe('es');
  });
});
