import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { mendSurrogates } from '../lib/third-party-text.js';

/**
 * What no client may send, refused in one place for every route before its own validation
 * (decision 0021): a NUL character (`\u0000`, `%00`) anywhere in the query string, the path,
 * a header or a JSON body — keys included — and JSON nested deeper than `MAX_DEPTH`.
 * PostgreSQL stores neither a NUL in text nor `\u0000` in jsonb, so without this a NUL became
 * a 500 on every route that wrote or searched with it. Text that comes from third parties
 * (webhooks, provider answers, uploaded files) is not refused but cleaned: `sanitizeJson`
 * (lib/third-party-text.ts).
 *
 * A lone UTF-16 surrogate (half of an emoji: a client that cut a string mid-character, or a
 * JSON `\ud800`) is mended, not refused: it becomes U+FFFD everywhere in the query and the body,
 * keys included. A text column already stored it so (pg writes strings as UTF-8), but a jsonb
 * column refused the `\ud800` that JSON.stringify writes for it: a 500 (found by the contract
 * fuzz at 200 requests per route, seed 2929: `terms[].name` of an attribute).
 */
export const MAX_DEPTH = 32;

const NUL = '\u0000';

export interface InputProblem {
  path: string;
  kind: 'nul' | 'depth';
}

/**
 * The first NUL or over-deep nesting in a parsed value (iterative: a hostile body cannot
 * overflow the stack). `base` names where the value came from in the message.
 */
export function findInputProblem(value: unknown, base = ''): InputProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: base, depth: 0 }];
  while (stack.length) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const v = item.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { path: item.path, kind: 'nul' };
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v) || v instanceof Uint8Array) continue;
    if (item.depth >= MAX_DEPTH) return { path: item.path, kind: 'depth' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(item.path, String(i)), depth: item.depth + 1 });
      continue;
    }
    // data objects only (JSON, a parsed query string's prototype-less object): a stream (an upload) is read by its own route
    if (!isData(v)) continue;
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      if (key.includes(NUL)) return { path: join(item.path, key.replaceAll(NUL, '\\u0000')), kind: 'nul' };
      stack.push({ value: child, path: join(item.path, key), depth: item.depth + 1 });
    }
  }
  return null;
}

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * `value` with every lone surrogate in its strings and keys as U+FFFD, its objects and arrays
 * mended in place (iterative; called once the depth is known to be bounded).
 */
export function mendInput(value: unknown): unknown {
  if (typeof value === 'string') return mendSurrogates(value);
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v) || v instanceof Uint8Array) continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] === 'string') v[i] = mendSurrogates(v[i]);
        else stack.push(v[i]);
      }
      continue;
    }
    if (!isData(v)) continue;
    const record = v as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const mended = mendSurrogates(key);
      if (mended !== key) delete record[key];
      if (typeof child === 'string') record[mended] = mendSurrogates(child);
      else {
        if (mended !== key) record[mended] = child;
        stack.push(child);
      }
    }
  }
  return value;
}

/** A plain data object: made by JSON.parse, a literal or a query-string parser (no prototype of its own). */
function isData(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

function refuse(problem: InputProblem, where: 'query' | 'params' | 'headers' | 'body'): never {
  if (problem.kind === 'depth') {
    throw new AppError('VALIDATION', `El cuerpo de la solicitud está anidado demasiado (máximo ${MAX_DEPTH} niveles)`, [
      { path: problem.path, msg: 'Demasiados niveles' },
    ]);
  }
  const path = problem.path || where;
  const what = where === 'headers' ? 'El encabezado' : 'El campo';
  throw new AppError('VALIDATION', `${what} «${path}» contiene un carácter nulo (\\u0000), que no se admite`, [
    { path, msg: 'Contiene un carácter nulo (\\u0000), que no se admite' },
  ]);
}

function checkRequestLine(request: FastifyRequest) {
  const problem = findInputProblem(request.query) ?? findInputProblem(request.params);
  if (problem) refuse(problem, 'query');
  mendInput(request.query);
  mendInput(request.params);
  // the raw line too: a NUL in the path of a route without params (`/api/health%00`)
  if (request.url.includes('%00') || request.url.includes(NUL)) refuse({ path: 'url', kind: 'nul' }, 'query');
  for (const [name, value] of Object.entries(request.headers)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes(NUL))) refuse({ path: name, kind: 'nul' }, 'headers');
  }
}

/**
 * Registers the guard on every route: the request line and headers before anything else runs
 * (authentication included), the body once parsed and before the route's schema sees it.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    checkRequestLine(request);
  });
  app.addHook('preValidation', async (request) => {
    const problem = findInputProblem(request.body);
    if (problem) refuse(problem, 'body');
    if (typeof request.body === 'string') request.body = mendSurrogates(request.body);
    else mendInput(request.body);
  });
});
