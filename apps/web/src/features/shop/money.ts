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

/**
 * A product picture's address: the demo's pictures (drawn by the server, decision 0031) from
 * this page's own origin, whatever host the seed wrote; any other link as it is.
 */
export function imageSrc(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const at = url.indexOf('/api/product-images/');
  return at >= 0 ? url.slice(at) : url;
}
