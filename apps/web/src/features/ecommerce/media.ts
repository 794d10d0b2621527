/** The demo's sandbox stores (`*.sandbox.test`, decision 0034) keep their pictures here: the product draws them. */
const SANDBOX_MEDIA = '/api/woocommerce-sandbox/media/';

/**
 * Where a product's picture is shown from: its own link, or, for a sandbox store's picture
 * (https://pe.tienda.sandbox.test/wp-content/uploads/polo-pima.svg, a host that never resolves),
 * the product's own drawing of it. Nothing for an empty or unreadable link.
 */
export function productImageSrc(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname.endsWith('.sandbox.test')) {
    const file = parsed.pathname.split('/').pop() ?? '';
    return /^[a-z0-9-]{1,60}\.svg$/.test(file) ? `${SANDBOX_MEDIA}${file}` : undefined;
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? url : undefined;
}
