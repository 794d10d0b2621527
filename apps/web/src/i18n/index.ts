import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { es } from './es';

/** SPEC §9: the locale is the browser's first two letters, falling back to es. */
export function browserLocale(language: string | undefined = globalThis.navigator?.language): string {
  const two = (language ?? '').slice(0, 2).toLowerCase();
  return two || 'es';
}

export const i18n: I18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: browserLocale(),
  fallbackLng: 'es',
  resources: { es: { translation: es } },
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
