/**
 * Every user-facing message the server and the SPA share, keyed by a stable code.
 * Spanish is the product language (SPEC §5, §8); English is served when the browser asks
 * for it through Accept-Language. Form messages are exact strings from the spec.
 */
export const formMessages = {
  required: 'Este campo es requerido',
  email: 'Este campo debe ser un email válido',
  confirmed: 'Las contraseñas no concuerdan',
  length: 'This field must have 2 options',
  decimal: 'Este campo debe ser un número válido',
  passwordLength: 'La contraseña debe tener al menos 8 caracteres',
  tooLong: 'Este campo es demasiado largo',
  invalid: 'Este campo no es válido',
  slug: 'Solo letras minúsculas, números y guiones',
  url: 'Debe ser una URL válida',
  hex: 'Debe ser un color hexadecimal como #28156C',
  integer: 'Este campo debe ser un número entero',
  nonNegative: 'Este campo no puede ser negativo',
  tooBig: 'Este número es demasiado grande',
  option: 'Elige una de las opciones disponibles',
  country: 'Elige un país: PE, CL, CO o ES',
  phone: 'Solo dígitos, con el código de país (de 8 a 15 dígitos)',
  datetime: 'Debe ser una fecha y hora ISO 8601 en UTC, como 2025-03-14T15:30:00Z',
} as const;

export const successMessages = {
  created: 'Registro guardado con éxito',
  updated: 'Registro actualizado con éxito',
  deleted: 'Registro eliminado con éxito',
  welcome: 'Bienvenido',
  usersUpdated: 'Usuarios actualizados con éxito',
  messagesSent: 'Mensajes enviados con éxito',
  routineExecuted: 'Rutina ejecutada con éxito',
  passwordChanged: 'Contraseña actualizada con éxito',
  resetSent: 'Si el correo está registrado, te enviamos un enlace para restablecer tu contraseña',
  corporationCreated: 'Corporación creada con éxito. Ya puedes iniciar sesión',
} as const;

/** Error codes on the wire (`errors.code`); the SPA branches on these, never on text. */
export const errorCodes = [
  'VALIDATION',
  'BAD_REQUEST',
  'INVALID_CREDENTIALS',
  'TOKEN_MISSING',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'SESSION_REVOKED',
  'FORBIDDEN',
  'COMPANY_FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RESET_TOKEN_INVALID',
  'REGISTRATION_TOKEN_INVALID',
  'PROVIDER_ERROR',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Codes after which the SPA tries one refresh of the access token. */
export const refreshableCodes: readonly ErrorCode[] = ['TOKEN_EXPIRED', 'TOKEN_INVALID', 'TOKEN_MISSING'];

export type Lang = 'es' | 'en';

export const errorMessages: Record<Lang, Record<ErrorCode, string>> = {
  es: {
    VALIDATION: 'Los datos enviados no son válidos',
    BAD_REQUEST: 'La solicitud no es válida',
    INVALID_CREDENTIALS: 'Correo, contraseña o corporación incorrectos',
    TOKEN_MISSING: 'Debes iniciar sesión para continuar',
    TOKEN_INVALID: 'Tu sesión no es válida. Inicia sesión de nuevo',
    TOKEN_EXPIRED: 'Tu sesión ha expirado. Inicia sesión de nuevo',
    SESSION_REVOKED: 'Tu sesión fue cerrada. Inicia sesión de nuevo',
    FORBIDDEN: 'No tienes permiso para realizar esta acción',
    COMPANY_FORBIDDEN: 'No perteneces a la compañía seleccionada',
    NOT_FOUND: 'El registro no existe',
    CONFLICT: 'El registro ya existe',
    RATE_LIMITED: 'Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo',
    PAYLOAD_TOO_LARGE: 'La solicitud es demasiado grande',
    UNSUPPORTED_MEDIA_TYPE: 'El formato de la solicitud no es compatible',
    RESET_TOKEN_INVALID: 'El enlace para restablecer la contraseña no es válido o ha expirado',
    REGISTRATION_TOKEN_INVALID: 'El enlace de registro no es válido, ya fue usado o ha expirado',
    PROVIDER_ERROR: 'El proveedor externo no respondió o rechazó la solicitud. Inténtalo de nuevo más tarde',
    INTERNAL: 'Ocurrió un error en el servidor. Inténtalo de nuevo más tarde',
  },
  en: {
    VALIDATION: 'The data sent is not valid',
    BAD_REQUEST: 'The request is not valid',
    INVALID_CREDENTIALS: 'Wrong e-mail, password or corporation',
    TOKEN_MISSING: 'Please sign in to continue',
    TOKEN_INVALID: 'Your session is not valid. Please sign in again',
    TOKEN_EXPIRED: 'Your session has expired. Please sign in again',
    SESSION_REVOKED: 'Your session was closed. Please sign in again',
    FORBIDDEN: 'You are not allowed to do this',
    COMPANY_FORBIDDEN: 'You do not belong to the selected company',
    NOT_FOUND: 'The record does not exist',
    CONFLICT: 'The record already exists',
    RATE_LIMITED: 'Too many failed attempts. Wait 15 minutes and try again',
    PAYLOAD_TOO_LARGE: 'The request is too large',
    UNSUPPORTED_MEDIA_TYPE: 'The request format is not supported',
    RESET_TOKEN_INVALID: 'The password reset link is invalid or has expired',
    REGISTRATION_TOKEN_INVALID: 'The registration link is invalid, used or expired',
    PROVIDER_ERROR: 'The external provider failed or refused the request. Try again later',
    INTERNAL: 'Something went wrong on the server. Try again later',
  },
};

/** Locale rule of SPEC §9: the first two letters of the browser's language, falling back to es. */
export function pickLang(acceptLanguage: string | undefined | null): Lang {
  const two = (acceptLanguage ?? '').trim().slice(0, 2).toLowerCase();
  return two === 'en' ? 'en' : 'es';
}
