import { type ErrorCode, type FieldError, errorMessages, type Lang } from '@mostrador/contract';

const statusOf: Record<ErrorCode, number> = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  INVALID_CREDENTIALS: 401,
  TOKEN_MISSING: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  SESSION_REVOKED: 401,
  FORBIDDEN: 401,
  COMPANY_FORBIDDEN: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RESET_TOKEN_INVALID: 400,
  REGISTRATION_TOKEN_INVALID: 400,
  PROVIDER_ERROR: 502,
  INTERNAL: 500,
};

/**
 * An error a user should read. Thrown anywhere; the one error handler turns it into
 * `{ errors: { code, msg, details? } }` in the caller's language.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    /** A specific Spanish message; the code's generic one when absent. */
    readonly msg?: string,
    readonly details?: FieldError[],
  ) {
    super(msg ?? code);
    this.statusCode = statusOf[code];
  }
}

export function errorBody(code: ErrorCode, lang: Lang, msg?: string, details?: FieldError[]) {
  return { errors: { code, msg: msg ?? errorMessages[lang][code], ...(details?.length ? { details } : {}) } };
}
