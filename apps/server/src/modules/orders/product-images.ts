/**
 * Product pictures of the demo, drawn by the product itself (no internet): GET
 * /api/product-images/{shape}-{rrggbb}.svg draws a simple packshot of that shape in that colour
 * on a soft background. A real company links its own images (products.imageUrl).
 */
export const productShapes = ['botella', 'lata', 'caja', 'bolsa', 'polo', 'zapatilla', 'gorra', 'taza', 'frasco', 'mochila'] as const;
export type ProductShape = (typeof productShapes)[number];

const shade = (hex: string, amount: number) => {
  const n = Number.parseInt(hex, 16);
  const f = (c: number) => Math.max(0, Math.min(255, Math.round(c + amount * 255)));
  return `#${[(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => f(c).toString(16).padStart(2, '0')).join('')}`;
};

function drawing(shape: ProductShape, c: string, dark: string, light: string): string {
  switch (shape) {
    case 'botella':
      return `<path d="M180 60h40v40c0 10 30 20 30 60v160c0 14-10 24-24 24h-52c-14 0-24-10-24-24V160c0-40 30-50 30-60z" fill="${c}"/>
        <rect x="176" y="48" width="48" height="20" rx="6" fill="${dark}"/><rect x="150" y="190" width="100" height="70" fill="#fff" opacity=".85"/>
        <rect x="165" y="210" width="70" height="10" rx="5" fill="${c}"/><rect x="175" y="230" width="50" height="8" rx="4" fill="${light}"/>`;
    case 'lata':
      return `<rect x="140" y="90" width="120" height="220" rx="18" fill="${c}"/><ellipse cx="200" cy="92" rx="60" ry="14" fill="${light}"/>
        <ellipse cx="200" cy="308" rx="60" ry="14" fill="${dark}"/><rect x="140" y="170" width="120" height="60" fill="#fff" opacity=".8"/>
        <rect x="160" y="190" width="80" height="10" rx="5" fill="${c}"/>`;
    case 'caja':
      return `<path d="M110 130l90-40 90 40v150l-90 40-90-40z" fill="${c}"/><path d="M110 130l90 40 90-40" fill="none" stroke="${light}" stroke-width="6"/>
        <path d="M200 170v150" stroke="${dark}" stroke-width="6"/><path d="M120 145l80 36v125l-80-36z" fill="${dark}" opacity=".35"/>`;
    case 'bolsa':
      return `<path d="M130 140h140l20 180H110z" fill="${c}"/><path d="M165 140c0-50 70-50 70 0" fill="none" stroke="${dark}" stroke-width="10"/>
        <rect x="150" y="200" width="100" height="60" rx="8" fill="#fff" opacity=".85"/><rect x="168" y="222" width="64" height="10" rx="5" fill="${c}"/>`;
    case 'polo':
      return `<path d="M150 80l-70 40 30 60 30-14v164h120V166l30 14 30-60-70-40c-10 20-30 30-50 30s-40-10-50-30z" fill="${c}"/>
        <path d="M150 80c10 20 30 30 50 30s40-10 50-30" fill="none" stroke="${dark}" stroke-width="8"/>`;
    case 'zapatilla':
      return `<path d="M80 250c0-40 20-70 40-90l50 10c20 30 60 40 110 50 30 6 40 20 40 40v20H80z" fill="${c}"/>
        <rect x="80" y="270" width="240" height="24" rx="10" fill="${light}"/><path d="M150 180l20 30M170 175l20 30M190 172l20 30" stroke="#fff" stroke-width="6"/>`;
    case 'gorra':
      return `<path d="M110 230c0-80 40-120 90-120s90 40 90 120z" fill="${c}"/><path d="M100 230h200c40 0 60 10 60 22H100z" fill="${dark}"/>
        <circle cx="200" cy="110" r="10" fill="${light}"/>`;
    case 'taza':
      return `<rect x="120" y="130" width="130" height="160" rx="16" fill="${c}"/><path d="M250 170c50 0 50 80 0 80" fill="none" stroke="${dark}" stroke-width="18"/>
        <ellipse cx="185" cy="132" rx="65" ry="12" fill="${light}"/><path d="M160 100c0-20 20-20 20-40M200 100c0-20 20-20 20-40" stroke="${light}" stroke-width="6" fill="none"/>`;
    case 'frasco':
      return `<rect x="135" y="120" width="130" height="190" rx="24" fill="${c}"/><rect x="145" y="80" width="110" height="44" rx="8" fill="${dark}"/>
        <rect x="150" y="180" width="100" height="70" rx="6" fill="#fff" opacity=".85"/><rect x="168" y="205" width="64" height="10" rx="5" fill="${c}"/>`;
    default:
      return `<rect x="120" y="110" width="160" height="200" rx="40" fill="${c}"/><path d="M160 110c0-50 80-50 80 0" fill="none" stroke="${dark}" stroke-width="12"/>
        <rect x="150" y="200" width="100" height="70" rx="12" fill="${dark}"/><rect x="170" y="220" width="60" height="8" rx="4" fill="${light}"/>`;
  }
}

/** The picture of `{shape}-{rrggbb}`; an unknown shape or colour draws a neutral box. */
export function productImageSvg(name: string): string {
  const match = /^([a-z]+)-([0-9a-f]{6})$/.exec(name);
  const shape: ProductShape = match && (productShapes as readonly string[]).includes(match[1]) ? (match[1] as ProductShape) : 'caja';
  const hex = match?.[2] ?? '28156c';
  const c = `#${hex}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">
  <defs><radialGradient id="bg" cx="50%" cy="40%" r="70%"><stop offset="0" stop-color="${shade(hex, 0.42)}"/><stop offset="1" stop-color="${shade(hex, 0.3)}"/></radialGradient></defs>
  <rect width="400" height="400" fill="#fff"/><rect width="400" height="400" fill="url(#bg)" opacity=".55"/>
  <ellipse cx="200" cy="340" rx="120" ry="14" fill="#000" opacity=".08"/>
  ${drawing(shape, c, shade(hex, -0.18), shade(hex, 0.25))}
</svg>`;
}

/** A product picture's path (the seed's links; the web shows any link under it from its own origin). */
export const productImagePath = (shape: ProductShape, hex: string) => `/api/product-images/${shape}-${hex.replace('#', '').toLowerCase()}.svg`;
