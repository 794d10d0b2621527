import { existsSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swaggerUi from '@fastify/swagger-ui';
import { pickLang, spanishIssue, type ZodIssueLike } from '@mostrador/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import { configureOutbound } from './integrations/outbound.js';
import type { Database } from './db/database.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { errorBody } from './lib/errors.js';
import { unmapped } from './lib/rate-limit.js';
import { createMailer, type Mailer } from './mail/outbox.js';
import { authRoutes } from './modules/auth/routes.js';
import { channelRoutes } from './modules/channels/routes.js';
import { chatRoutes } from './modules/chats/routes.js';
import { contactFrequencyRoutes } from './modules/contact-frequency/routes.js';
import { leadCsvRoutes } from './modules/leads/csv-routes.js';
import { leadBoardRoutes } from './modules/lead-board/routes.js';
import { teamMetricsRoutes } from './modules/team-metrics/routes.js';
import { leadRoutes } from './modules/leads/routes.js';
import { peopleRoutes } from './modules/people/routes.js';
import { createSessions, type Sessions } from './modules/auth/session.js';
import { createTokenService, type TokenService } from './lib/tokens.js';
import { companyRoutes } from './modules/companies/routes.js';
import { corporationRoutes } from './modules/corporations/routes.js';
import { groupRoutes } from './modules/groups/routes.js';
import { systemRoutes } from './modules/system/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { eventRoutes } from './modules/events/routes.js';
import { ecommerceRoutes } from './modules/ecommerce/routes.js';
import { marketplaceRoutes } from './modules/marketplace/routes.js';
import { genialRoutes } from './modules/genial/routes.js';
import { orderRoutes } from './modules/orders/routes.js';
import { paymentPages } from './modules/payments/sandbox-pages.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { whatsappTemplateRoutes } from './modules/whatsapp-templates/routes.js';
import { telegramRoutes } from './modules/telegram/routes.js';
import { metaAdsRoutes } from './modules/meta-ads/routes.js';
import { conversionsRoutes } from './modules/conversions-api/routes.js';
import { googlePeopleRoutes } from './modules/google-people/routes.js';
import { metaCatalogRoutes } from './modules/meta-catalog/routes.js';
import { redactedRequest } from './lib/log-redact.js';
import { gravityFormRoutes } from './modules/gravity-forms/routes.js';
import { dialogflowRoutes } from './modules/dialogflow/routes.js';
import { commentRoutes } from './modules/facebook-comments/routes.js';
import { facebookLabelWake } from './modules/facebook-labels/people.js';
import { facebookLabelRoutes } from './modules/facebook-labels/routes.js';
import { mailchimpRoutes } from './modules/mailchimp/routes.js';
import { driveRoutes } from './modules/drive/routes.js';
import { sendingRoutes } from './modules/sending/routes.js';
import { analysisJobsPlugin } from './modules/llm/analysis-plugin.js';
import { analysisRoutes } from './modules/analysis/routes.js';
import { llmRoutes } from './modules/llm/routes.js';
import { assistantRoutes } from './modules/assistant/routes.js';
import { messageHistoryRoutes } from './modules/sending/history-routes.js';
import { createRealtime, type Realtime } from './lib/realtime.js';
import { createSpine, type Spine } from './spine/dispatcher.js';
import { listenersOf } from './spine/listeners.js';
import { createWebhookProcessor, type WebhookProcessor } from './modules/webhooks/process.js';
import { type CommentService, createCommentService } from './modules/facebook-comments/service.js';
import { createEntryProcessor, GRAVITY_PROVIDER } from './modules/forms/entries.js';
import { botTakes } from './modules/dialogflow/bots.js';
import { resourceRoutes } from './resources/crud.js';
import { createSecretBox, type SecretBox } from './lib/secret-box.js';
import { authPlugin, createPermissionService } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { metricsPlugin } from './plugins/metrics.js';
import { openapiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { rowScopePlugin } from './plugins/row-scope.js';
import { applyHeaders, securityHeaders, securityHeadersPlugin } from './plugins/security-headers.js';
import { assignmentRoutes } from './modules/assignment/routes.js';
import { metricsRoutes } from './modules/metrics/routes.js';
import { attributionRoutes } from './modules/attribution/routes.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { createDeliverer, type Deliverer } from './modules/webhook-subscriptions/deliver.js';
import { webhookSubscriptionRoutes } from './modules/webhook-subscriptions/routes.js';
import { automationRoutes } from './modules/automation/routes.js';
import { recoveryRoutes } from './modules/recovery/routes.js';
import { businessHoursRoutes } from './modules/business-hours/routes.js';
import { csatRoutes } from './modules/csat/routes.js';
import { auditLogRoutes } from './modules/audit-log/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';

// zod's own wording in Spanish wherever a schema gives no message: the contract's one error map
z.config({ customError: (issue) => spanishIssue(issue as ZodIssueLike) });

declare module 'fastify' {
  interface FastifyInstance {
    settings: Config;
    database: Database;
    tokens: TokenService;
    /** Seals integration secrets at rest. */
    secrets: SecretBox;
    sessions: Sessions;
    permissions: ReturnType<typeof createPermissionService>;
    jobs: JobQueue;
    mailer: Mailer;
    /** Real-time events to the company's open browsers (GET /api/events). */
    realtime: Realtime;
    /** The event spine: domain events to their listeners (spine/, decision 0068). */
    spine: Spine;
    /** The one webhook processor (modules/webhooks/process.ts): the queue's handler, the replay of dead letters, the tests. */
    webhookProcessor: WebhookProcessor;
    /** Outbound webhooks' sender (modules/webhook-subscriptions/deliver.ts, decision 0073). */
    webhookDeliverer: Deliverer;
    /** Facebook comments of the pages and their private replies (decision 0049), shared by the processor and the routes. */
    comments: CommentService;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Pino logger settings; tests pass false. */
  logger?: boolean | object;
}

/**
 * Builds the API + SPA server on an open database. No port is opened here: tests call
 * `app.inject`, `server.ts` calls `listen`.
 */
export async function buildApp({ config, database, logger }: BuildOptions): Promise<FastifyInstance> {
  const headers = securityHeaders(config.publicUrl);
  const app = Fastify({
    // the log never keeps the client secret of /telefonos/googlepeople/… nor OAuth codes (decision 0052)
    logger: logger === false ? false : { level: config.logLevel, ...(typeof logger === 'object' ? logger : {}), serializers: { req: redactedRequest } },
    bodyLimit: config.bodyLimit,
    // TRUST_PROXY (decision 0004): a list trusts those addresses and ranges only; a hop count
    // trusts that many proxies nearest the server, each only if its address is private
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // errors raised before routing (a path with broken percent-encoding, `/api/x/%ED%A0%80`)
    // answer the product's Spanish error shape too, never Fastify's English one
    frameworkErrors: (error, request, reply) => {
      const lang = pickLang(request.headers['accept-language']);
      const msg = error.code === 'FST_ERR_BAD_URL' ? 'La dirección de la solicitud no es válida' : undefined;
      // no hook runs before this answer: the security headers are put here (decision 0063)
      applyHeaders(reply.raw, headers);
      (reply as unknown as { status(n: number): { send(body: unknown): void } }).status(400).send(errorBody('BAD_REQUEST', lang, msg));
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const jobs = createJobQueue(database, app.log);
  const mailer = createMailer(config, database.db, jobs, app.log);
  app.decorate('settings', config);
  // what the addresses a tenant types may reach (decision 0060): the operator's setting, only local ones in tests
  configureOutbound(config);
  app.decorate('database', database);
  app.decorate('tokens', createTokenService(config.jwtSecret, config.accessTokenTtl));
  app.decorate('secrets', createSecretBox(config.secretsKey));
  app.decorate('jobs', jobs);
  app.decorate('mailer', mailer);
  app.decorate('realtime', createRealtime(database, app.log));
  app.decorate('permissions', createPermissionService(app));
  // outbound webhooks' sender (decision 0073): woken by the spine's fan-out, the minute's job and «Reenviar»
  // a subscription it paused has its event on the spine: the notice to its owners goes now (decision 0075)
  app.decorate(
    'webhookDeliverer',
    createDeliverer({ database, secrets: app.secrets, timeoutSeconds: config.webhooks.timeoutSeconds, lanes: config.webhooks.lanes, log: app.log, onPaused: () => app.spine.wake() }),
  );
  app.addHook('onClose', () => app.webhookDeliverer.stop());
  // the spine's listeners use the services above: built after them, started by boot.ts where jobs are worked
  app.decorate('spine', createSpine(database, listenersOf(app), { log: app.log, retentionDays: config.eventsRetentionDays }));
  // likewise what a batch of jobs committed (a sync's page, a webhook's delivery)
  app.jobs.afterJobs(() => app.spine.wake());
  app.decorate('comments', createCommentService({ db: database.db, secrets: app.secrets, config, log: app.log }));
  app.decorate(
    'webhookProcessor',
    createWebhookProcessor(database.db, app.secrets, app.realtime, app.log, {
      comments: app.comments,
      // form entries share the store, the queue and the dead letters (decision 0050)
      providers: { [GRAVITY_PROVIDER]: createEntryProcessor(app.secrets) },
      // a chat a Dialogflow bot answers is not assigned on arrival; its answer follows the event (spine/listeners.ts)
      bots: config.bots ? { holds: botTakes } : undefined,
      spine: app.spine,
    }),
  );
  app.decorate('sessions', createSessions(app));

  await app.register(errorsPlugin);
  // CSP, frame, referrer and HSTS headers on every answer, errors and 404s included (decision 0063)
  await app.register(securityHeadersPlugin, { headers });
  // first: every route after it is timed, and GET /metrics answers them (decision 0066)
  await app.register(metricsPlugin);
  await app.register(cookie);
  // the OpenAPI 3.1 document of every route below, made in one place (plugins/openapi.ts, decision 0071)
  await app.register(openapiPlugin, { version: config.version });
  // the API's description is public (decision 0021): a developer opens /api/docs in a browser
  // without a bearer token; the calls it describes still need one
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config as object), public: true };
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  // before authentication: a NUL in a header or the query is refused before any lookup
  await app.register(inputGuardPlugin);
  // the anonymous routes' per-address limits (decision 0004), before anything reads the body
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  // a request naming another agent's lead or chat is a 404 for a caller who sees only their own (decision 0026)
  await app.register(rowScopePlugin);
  // a write that mapped a label to a page label wakes the job that puts it on the people (decision 0057)
  await app.register(facebookLabelWake);
  // a committed write of a request wakes the spine: its events reach their listeners now (decision 0068)
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') app.spine.wake();
  });

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(corporationRoutes);
      await api.register(userRoutes);
      await api.register(companyRoutes);
      await api.register(groupRoutes);
      await api.register(assignmentRoutes);
      await api.register(resourceRoutes);
      await api.register(channelRoutes);
      await api.register(chatRoutes);
      await api.register(leadRoutes);
      await api.register(leadBoardRoutes);
      // how the team answers (issue 31, decision 0094)
      await api.register(teamMetricsRoutes);
      // a chat's and a lead's analysis (issue 31, decision 0092)
      await api.register(analysisRoutes);
      await api.register(leadCsvRoutes);
      await api.register(peopleRoutes);
      await api.register(contactFrequencyRoutes);
      await api.register(webhookRoutes);
      await api.register(eventRoutes);
      await api.register(ecommerceRoutes);
      await api.register(marketplaceRoutes);
      await api.register(genialRoutes);
      await api.register(orderRoutes);
      await api.register(whatsappTemplateRoutes);
      await api.register(telegramRoutes);
      await api.register(sendingRoutes);
      await api.register(messageHistoryRoutes);
      await api.register(metricsRoutes);
      // order attribution and its funnel (issue 31, decisions 0096, 0097)
      await api.register(attributionRoutes);
      await api.register(llmRoutes);
      await api.register(metaAdsRoutes);
      await api.register(conversionsRoutes);
      await api.register(googlePeopleRoutes);
      await api.register(metaCatalogRoutes);
      await api.register(gravityFormRoutes);
      await api.register(dialogflowRoutes);
      await api.register(commentRoutes);
      await api.register(facebookLabelRoutes);
      await api.register(mailchimpRoutes);
      await api.register(driveRoutes);
      await api.register(apiKeyRoutes);
      await api.register(webhookSubscriptionRoutes);
      await api.register(automationRoutes);
      await api.register(recoveryRoutes);
      await api.register(businessHoursRoutes);
      await api.register(csatRoutes);
      await api.register(auditLogRoutes);
      await api.register(notificationRoutes);
      await api.register(paymentRoutes);
      await api.register(analysisJobsPlugin);
      await api.register(assistantRoutes);
    },
    { prefix: '/api' },
  );

  // the demo's Mercado Pago checkout and the page Checkout Pro sends the buyer back to (decision 0083)
  await app.register(paymentPages);
  await registerSpa(app, config.webDist);
  return app;
}

/** proxy-addr's loopback, link-local and unique-local ranges: where a proxy counted by hops must be. */
const privateRanges = new BlockList();
for (const [net, prefix] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const) privateRanges.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) privateRanges.addSubnet(net, prefix, 'ipv6');

/**
 * The trust function of a hop count: the `hops` addresses nearest the socket are proxies, when
 * they are private addresses. Fastify's own number form trusts nothing (a client reaching the
 * server directly would pick its address by sending enough hops); a client on the internet
 * still cannot, since its own address is not private.
 */
function trustHops(hops: number) {
  return (address: string, hop: number) => {
    if (hop >= hops) return false;
    const ip = unmapped(address);
    const family = isIP(ip);
    return family !== 0 && privateRanges.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** The public shop's screens (decision 0031), served from shop.html. */
export const shopPage = /^\/(catalogo-digital(\/[^/]+)?|ordenes\/[^/]+)\/?$/;

/** Serves the built SPA; any non-API GET falls back to index.html (history-mode routing). */
async function registerSpa(app: FastifyInstance, webDist: string) {
  const hasSpa = existsSync(path.join(webDist, 'index.html'));
  const hasShop = existsSync(path.join(webDist, 'shop.html'));
  app.setNotFoundHandler((request, reply) => {
    // Screens fall back to index.html; a missing file (an old asset after a deploy) is a real 404.
    const pathname = request.url.split('?')[0];
    const isScreen = !pathname.startsWith('/api') && !pathname.startsWith('/assets/') && !/\.[a-z0-9]+$/i.test(pathname);
    if (hasSpa && request.method === 'GET' && isScreen) {
      // the public shop is its own page (decision 0031): /catalogo-digital[/{id}], /ordenes/{token}
      const page = hasShop && shopPage.test(pathname) ? 'shop.html' : 'index.html';
      // the spec's /telefonos/googlepeople/{id}/{clientId}/{clientSecret}: no Referer and no cache carries the secret (decision 0052)
      if (/^\/telefonos\/googlepeople\//i.test(pathname)) reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
      // cacheControl false: @fastify/static's own `public, max-age=0` would replace the no-store above
      return reply.type('text/html').header('cache-control', reply.getHeader('cache-control') ?? 'no-cache').sendFile(page, { cacheControl: false });
    }
    const lang = pickLang(request.headers['accept-language']);
    return reply.status(404).send(errorBody('NOT_FOUND', lang, lang === 'es' ? 'La ruta no existe' : 'No such route'));
  });
  if (!hasSpa) {
    app.log.warn(`No hay build del front end en ${webDist}: ejecuta "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    // files are looked up per request, so a rebuild is served without a restart
    wildcard: true,
    // '/' is a screen too: the SPA redirects it to /login
    index: ['index.html'],
    // the .br/.gz copies the web build writes beside each file (apps/web/scripts/precompress.mjs), with
    // Vary: Accept-Encoding; a browser that takes neither gets the file itself (decision 0063)
    preCompressed: true,
    setHeaders: (reply, file) => {
      if (file.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
}
