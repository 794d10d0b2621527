import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeEqual } from '../src/lib/safe-equal.js';

describe('safeEqual (every secret comparison, decision 0061)', () => {
  it('matches only the same value; lengths, prefixes and empty values never match', () => {
    expect(safeEqual('token-de-verificación', 'token-de-verificación')).toBe(true);
    expect(safeEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
    expect(safeEqual('token', 'token-de-verificación')).toBe(false);
    expect(safeEqual('token-de-verificación-y-más', 'token-de-verificación')).toBe(false);
    expect(safeEqual('Token-de-verificación', 'token-de-verificación')).toBe(false);
    expect(safeEqual('', '')).toBe(false);
    expect(safeEqual(undefined, 'x')).toBe(false);
    expect(safeEqual('x', undefined)).toBe(false);
  });

  // the attack is a timing one, which a test cannot measure without flaking: what it can check is
  // that no code compares a secret any other way — no direct timingSafeEqual (whose length check
  // callers did by hand, telling the length) and no === / !== against a verify token or secret
  it('is the only comparison of secrets in the server', () => {
    const root = join(import.meta.dirname, '../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(root);
    const offenders: string[] = [];
    for (const p of files) {
      if (p.endsWith('safe-equal.ts') || /fake/.test(p)) continue;
      const text = readFileSync(p, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (/timingSafeEqual/.test(line)) offenders.push(`${p}:${i + 1}`);
        if (/(!==|===)\s*[\w.]*(verifyToken|VerifyToken|Secret\b|secret\b|\.keys\.(key|secret))|(verify_token'\]|verifyToken|\.keys\.(key|secret))\s*(!==|===)/.test(line)) offenders.push(`${p}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
