import { MAX_PAGINATION_BUTTONS } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { pageWindow } from './pagination';

describe('pageWindow', () => {
  it('shows every page up to 16', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 16)).toHaveLength(16);
  });

  it('shows at most 16 pages, the current one inside and near the middle', () => {
    expect(MAX_PAGINATION_BUTTONS).toBe(16);
    for (const page of [1, 2, 9, 20, 33, 34]) {
      const pages = pageWindow(page, 34);
      expect(pages).toHaveLength(16);
      expect(pages).toContain(page);
      expect(pages[0]).toBeGreaterThanOrEqual(1);
      expect(pages.at(-1)).toBeLessThanOrEqual(34);
    }
    expect(pageWindow(20, 34)).toEqual(Array.from({ length: 16 }, (_, i) => 13 + i));
    expect(pageWindow(34, 34).at(-1)).toBe(34);
  });

  it('clamps odd inputs: page 0, a page past the end, no pages', () => {
    expect(pageWindow(0, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(9, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 0)).toEqual([1]);
    expect(pageWindow(4, 10, 5)).toEqual([2, 3, 4, 5, 6]);
  });
});
