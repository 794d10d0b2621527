import { MAX_PAGINATION_BUTTONS } from '@mostrador/contract';

/**
 * The page numbers to show as buttons: all of them up to `max` (SPEC §9: 16), else a
 * window of `max` consecutive pages that keeps the current page near its middle.
 */
export function pageWindow(page: number, totalPages: number, max: number = MAX_PAGINATION_BUTTONS): number[] {
  const total = Math.max(1, Math.floor(totalPages));
  const size = Math.max(1, Math.min(max, total));
  const current = Math.min(Math.max(1, Math.floor(page)), total);
  const start = Math.min(Math.max(1, current - Math.floor((size - 1) / 2)), total - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}

/** Items-per-page choices (the session store's default, 30, among them). */
export const PAGE_SIZES = [10, 20, 30, 50, 100] as const;
