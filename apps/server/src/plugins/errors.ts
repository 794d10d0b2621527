import { fieldMessage, pickLang } from '@mostrador/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorBody } from '../lib/errors.js';

const fastifyCodes: Record<string, { code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE'; msg?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', msg: 'El cuerpo de la solicitud no es un JSON válido' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'BAD_REQUEST', msg: 'El cuerpo de la solicitud está vacío' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST' },
};

/** The one error handler: writes the wire error shape, in Spanish by default, and hides 5xx details. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = pickLang(request.headers['accept-language']);
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, lang, error.msg, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        msg: v.message ?? 'Valor no válido',
      }));
      const first = details[0];
      // the field by its Spanish name ('Correo electrónico: …'), never the raw key; details keep the path for forms
      const msg = first ? fieldMessage(first.path, first.msg) : undefined;
      return reply.status(400).send(errorBody('VALIDATION', lang, msg, details));
    }
    const known = error.code ? fastifyCodes[error.code] : undefined;
    if (known) {
      const status = known.code === 'PAYLOAD_TOO_LARGE' ? 413 : known.code === 'UNSUPPORTED_MEDIA_TYPE' ? 415 : 400;
      return reply.status(status).send(errorBody(known.code, lang, known.msg));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send(errorBody('BAD_REQUEST', lang));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', lang));
  });
});
