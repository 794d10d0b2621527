import { MAX_LINE_QUANTITY } from '@mostrador/contract';
import { useCallback, useEffect, useState } from 'react';

/** One line of the cart as the browser keeps it: what was chosen, with what was shown (for the screen only; the server prices it). */
export interface CartLine {
  productId: string;
  variantSku?: string;
  name: string;
  variantLabel?: string;
  imageUrl?: string;
  price: number;
  quantity: number;
  available: number;
}

const keyOf = (catalogId: string) => `mostrador-carrito:${catalogId}`;

export function readCart(catalogId: string): CartLine[] {
  try {
    const lines = JSON.parse(localStorage.getItem(keyOf(catalogId)) ?? '[]') as unknown;
    return Array.isArray(lines) ? (lines as CartLine[]).filter((l) => l && typeof l.productId === 'string' && l.quantity > 0) : [];
  } catch {
    return [];
  }
}

function writeCart(catalogId: string, lines: CartLine[]) {
  try {
    if (lines.length) localStorage.setItem(keyOf(catalogId), JSON.stringify(lines));
    else localStorage.removeItem(keyOf(catalogId));
  } catch {
    // private mode without storage: the cart lives as long as the page
  }
}

const same = (a: Pick<CartLine, 'productId' | 'variantSku'>, b: Pick<CartLine, 'productId' | 'variantSku'>) =>
  a.productId === b.productId && (a.variantSku ?? '') === (b.variantSku ?? '');

/** The cart of one catalogue, kept in localStorage (survives reloads and closing the tab). */
export function useCart(catalogId: string | undefined) {
  const [lines, setLines] = useState<CartLine[]>(() => (catalogId ? readCart(catalogId) : []));
  useEffect(() => {
    if (catalogId) setLines(readCart(catalogId));
  }, [catalogId]);
  const update = useCallback(
    (next: (current: CartLine[]) => CartLine[]) =>
      setLines((current) => {
        const value = next(current);
        if (catalogId) writeCart(catalogId, value);
        return value;
      }),
    [catalogId],
  );
  const cap = (l: CartLine, q: number) => Math.max(0, Math.min(q, l.available, MAX_LINE_QUANTITY));
  return {
    lines,
    count: lines.reduce((n, l) => n + l.quantity, 0),
    total: Math.round(lines.reduce((n, l) => n + l.price * l.quantity, 0) * 100) / 100,
    add: (line: CartLine) =>
      update((current) => {
        const found = current.find((l) => same(l, line));
        if (found) return current.map((l) => (l === found ? { ...l, ...line, quantity: cap(line, l.quantity + line.quantity) } : l));
        return [...current, { ...line, quantity: cap(line, line.quantity) }];
      }),
    setQuantity: (line: CartLine, quantity: number) =>
      update((current) => current.map((l) => (same(l, line) ? { ...l, quantity: cap(l, quantity) } : l)).filter((l) => l.quantity > 0)),
    remove: (line: CartLine) => update((current) => current.filter((l) => !same(l, line))),
    clear: () => update(() => []),
  };
}
export type Cart = ReturnType<typeof useCart>;

/** `?carrito=SKU:2,SKU2:1` (a follow-up's link, decision 0089): the SKUs and quantities it asks for, at most 30 lines. */
export function cartParamOf(search: string): Array<{ sku: string; quantity: number }> {
  const raw = new URLSearchParams(search).get('carrito');
  if (!raw) return [];
  const out: Array<{ sku: string; quantity: number }> = [];
  for (const part of raw.split(',').slice(0, 30)) {
    const [sku, count] = part.split(':');
    const clean = sku?.trim().toUpperCase();
    if (!clean || clean.length > 60) continue;
    const quantity = Math.max(1, Math.min(MAX_LINE_QUANTITY, Math.floor(Number(count ?? 1)) || 1));
    out.push({ sku: clean, quantity });
  }
  return out;
}
