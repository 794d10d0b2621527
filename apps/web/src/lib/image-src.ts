/**
 * A product picture's address: the demo's pictures (drawn by the server, decision 0031) from
 * this page's own origin, whatever host the seed wrote; any other link as it is.
 */
export function imageSrc(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const at = url.indexOf('/api/product-images/');
  return at >= 0 ? url.slice(at) : url;
}
