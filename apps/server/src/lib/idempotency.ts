import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** An Idempotency-Key: what clients send (a uuid, a ULID…); anything else is a Spanish 400. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,200}$/;

/**
 * The request's `Idempotency-Key` header, checked once for every route that takes one (ARCHITECTURE
 * §5: a write a retry could double is done once per key): undefined when absent and optional; a
 * Spanish 400 when malformed, or absent where the route requires it (the public placement).
 */
export function idempotencyKeyOf(request: FastifyRequest, { required = false }: { required?: boolean } = {}): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined && !required) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new AppError(
      'VALIDATION',
      key === undefined ? 'Falta el encabezado Idempotency-Key (de 8 a 200 letras, números, guiones o puntos)' : 'El encabezado Idempotency-Key no es válido (de 8 a 200 letras, números, guiones o puntos)',
      [{ path: 'Idempotency-Key', msg: key === undefined ? 'Falta o no es válido' : 'No es válido' }],
    );
  }
  return key;
}
