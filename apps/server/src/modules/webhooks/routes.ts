import { pickLang } from '@mostrador/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { metaEvents, type ProviderEvent, whatsappEvents } from '../../integrations/meta/events.js';
import { sanitizeJson } from '../../lib/third-party-text.js';
import { isValidSignature } from '../../integrations/meta/signature.js';
import { AppError, errorBody } from '../../lib/errors.js';
import { safeEqual } from '../../lib/safe-equal.js';
import { contactLeadRoutes } from '../conversations/contact-lead.js';
import { deadLetterRoutes } from './dead-letters.js';
import { storeEvents, WEBHOOK_QUEUE } from './process.js';

/** Webhook events this process works at once (the queue's lanes). */
export const WEBHOOK_LANES = 4;

const handshakeQuery = z.looseObject({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().max(500, 'hub.challenge es demasiado largo').optional(),
});

/**
 * Provider webhooks (issue 4 "Channels in"): `/webhooks/whatsapp` (WhatsApp Cloud API) and
 * `/webhooks/meta` (Messenger and Instagram). No token: Meta proves itself with the verify
 * token on the GET handshake and with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with
 * the app secret) on every POST. This plugin is encapsulated: its catch-all parser keeps the
 * raw body for the signature here only, the rest of the app parses JSON as usual.
 * A verified event is stored once (a replay changes nothing), queued, and answered at once.
 */
export async function webhookRoutes(app: FastifyInstance) {
  // the one processor and comment service (app.ts): the same here, in the dead letters' replay and in the forms' sync
  const processor = app.webhookProcessor;
  const { comments } = app;
  // an event takes milliseconds: one a killed worker held is tried again after a minute, not 15.
  // Four lanes: an event mostly waits on the database, and events side by side are safe (one
  // person's are serialised by a lock on the person, inbound.ts); one lane held a burst of 10,000
  // messages to ~53 a second (bench/metrics.ts)
  app.jobs.define<{ id: string }>(
    WEBHOOK_QUEUE,
    async ({ id }) => {
      await processor.process(id);
    },
    { expireInSeconds: 60, lanes: WEBHOOK_LANES },
  );
  // events a crash left pending are queued again when the server is ready (the queue has started)
  app.addHook('onReady', async () => {
    try {
      for (const id of await processor.pendingIds()) await app.jobs.send(WEBHOOK_QUEUE, { id }, { singletonKey: id });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar los eventos de webhook pendientes');
    }
    // private replies a crash left between the comment's commit and Facebook's answer
    void (async () => {
      for (const id of await comments.pendingIds()) await comments.sendReply(id);
    })().catch((error: unknown) => app.log.warn({ err: error }, 'no se pudieron enviar las respuestas privadas pendientes'));
  });

  // the admin's list of failed events (a child context: authenticated like the rest of /api)
  await app.register(deadLetterRoutes);
  await app.register(contactLeadRoutes);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const { metaAppSecret, webhookVerifyToken } = app.settings;
  if (!metaAppSecret || !webhookVerifyToken) {
    app.log.warn('META_APP_SECRET o WEBHOOK_VERIFY_TOKEN sin definir: los webhooks de WhatsApp y Meta rechazan todo (503)');
  }
  const unconfigured = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(503)
      .send(errorBody('INTERNAL', pickLang(request.headers['accept-language']), 'Webhooks sin configurar: faltan META_APP_SECRET y WEBHOOK_VERIFY_TOKEN'));

  const handshake = async (request: FastifyRequest<{ Querystring: z.infer<typeof handshakeQuery> }>, reply: FastifyReply) => {
    if (!webhookVerifyToken) return unconfigured(request, reply);
    const q = request.query;
    if (q['hub.mode'] !== 'subscribe' || !safeEqual(q['hub.verify_token'], webhookVerifyToken) || !q['hub.challenge']) {
      const lang = pickLang(request.headers['accept-language']);
      return reply.status(403).send(errorBody('FORBIDDEN', lang, 'El token de verificación del webhook no coincide'));
    }
    return reply.type('text/plain; charset=utf-8').send(q['hub.challenge']);
  };

  const receive = (extract: (body: unknown) => ProviderEvent[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!metaAppSecret) return unconfigured(request, reply);
    const raw = request.body;
    if (!Buffer.isBuffer(raw) || !isValidSignature(raw, request.headers['x-hub-signature-256'], metaAppSecret)) {
      throw new AppError('TOKEN_INVALID', 'Firma del evento ausente o no válida (X-Hub-Signature-256)');
    }
    let body: unknown;
    try {
      // third-party text is never refused: NUL removed, lone surrogates replaced (decision 0021)
      body = sanitizeJson(JSON.parse(raw.toString('utf8')));
    } catch {
      throw new AppError('BAD_REQUEST', 'El cuerpo del evento no es un JSON válido');
    }
    const events = extract(body);
    const { ids, deadLetters, lost } = await storeEvents(app.database.db, events, request.log);
    // Meta retries a delivery answered 5xx: only worth it when nothing of it could be kept
    if (lost > 0 && ids.length === 0 && deadLetters === 0) {
      throw new AppError('INTERNAL', 'No se pudo guardar ningún evento de la entrega: Meta la reintentará');
    }
    for (const id of ids) {
      // stored first: if queueing fails, the event stays pending and is queued again on start
      await app.jobs.send(WEBHOOK_QUEUE, { id }, { singletonKey: id }).catch((error: unknown) => {
        request.log.error({ err: error, id }, 'no se pudo encolar el evento de webhook');
      });
    }
    return reply.status(200).send({ received: events.length, stored: ids.length, ...(deadLetters ? { failed: deadLetters } : {}) });
  };

  const config = { public: true } as const;
  const tags = ['webhooks'];
  const schema = { tags, querystring: handshakeQuery };
  app.get('/webhooks/whatsapp', { config, schema }, handshake);
  app.get('/webhooks/meta', { config, schema }, handshake);
  app.post('/webhooks/whatsapp', { config, schema: { tags } }, receive(whatsappEvents));
  app.post('/webhooks/meta', { config, schema: { tags } }, receive(metaEvents));
}
