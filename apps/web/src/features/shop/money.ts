const locales: Record<string, string> = { PEN: 'es-PE', CLP: 'es-CL', COP: 'es-CO', EUR: 'es-ES' };
const formats = new Map<string, Intl.NumberFormat>();

/** An amount in the shop's currency, as a reader of that country writes it (S/ 23.50, $4.990, 12,00 €). */
export function money(amount: number, currency: string): string {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(locales[currency] ?? 'es-PE', { style: 'currency', currency });
    formats.set(currency, format);
  }
  return format.format(amount);
}
