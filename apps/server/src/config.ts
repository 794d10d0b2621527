import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { privateSecret } from './lib/data-dir.js';

/**
 * Every setting the server reads, in one place (docs/OPERATIONS.md lists them), each with its
 * one-line description: `npm run env:example` writes .env.example from here (decision 0066).
 * Relative paths resolve against the directory `npm` was started from (INIT_CWD), so
 * `npm start` at the repository root keeps its data in ./data.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development').describe('Modo: production exige JWT_SECRET y nunca siembra la demo'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('Puerto HTTP de la SPA y la API'),
  HOST: z.string().default('0.0.0.0').describe('Interfaz donde escucha el servidor'),
  DATABASE_URL: z.string().optional().describe('PostgreSQL (postgres://usuario:clave@host:5432/base); sin ella, PGlite embebida en DATA_DIR'),
  DATA_DIR: z.string().default('./data').describe('Carpeta de la base embebida, la clave local y los archivos de Drive sin S3_BUCKET (relativa a donde se ejecutó npm)'),
  PUBLIC_URL: z.string().optional().describe('URL pública del producto (enlaces de correo, webhooks, archivos de Drive); https marca la cookie Secure'),
  JWT_SECRET: z.string().min(32).optional().describe('Firma de los tokens de acceso (≥ 32 caracteres); obligatoria en producción'),
  SECRETS_KEY: z.string().min(32).optional().describe('Clave (≥ 32 caracteres) que cifra las credenciales de integraciones: sin ella no se leen las guardadas'),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).default(900).describe('Segundos de vida del token de acceso'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30).describe('Días de inactividad tras los que expira la sesión'),
  SMTP_URL: z.string().optional().describe('smtp://usuario:clave@host:587; sin ella los correos solo se registran'),
  MAIL_FROM: z.string().default('Mostrador <no-reply@mostrador.local>').describe('Remitente de los correos'),
  SEED: z.enum(['true', 'false']).default('true').describe('false: no siembra el tenant demo en una base vacía (nunca en producción)'),
  WORKERS: z.enum(['inline', 'off']).default('inline').describe('off: este proceso solo encola y los trabajos los corre npm run worker'),
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576).describe('Bytes máximos del cuerpo de una solicitud (más: 413)'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Nivel del log (pino)'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .superRefine((v, ctx) => {
      const problem = trustProxyProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('Proxies delante del servidor: false, cuántos (1 detrás de un balanceador) o sus direcciones y rangos (10.0.0.5,10.0.1.0/24); nunca true'),
  WEB_DIST: z.string().optional().describe('Carpeta de la SPA construida (por defecto apps/web/dist)'),
  META_APP_SECRET: z.string().min(1).optional().describe('Secreto de la app de Meta: verifica X-Hub-Signature-256 de los webhooks (sin él en producción: 503)'),
  META_APP_ID: z.string().regex(/^\d+$/, { error: 'META_APP_ID son solo dígitos' }).optional().describe('Id de la app de Meta: sube los ejemplos de medios de las plantillas de WhatsApp'),
  WEBHOOK_VERIFY_TOKEN: z.string().min(1).optional().describe('Lo que Meta envía como hub.verify_token al suscribir el webhook'),
  SEND_PROVIDER: z.enum(['graph', 'sandbox'], { error: "SEND_PROVIDER debe ser 'graph' o 'sandbox'" }).optional().describe('Por dónde salen los mensajes: graph (Meta) o sandbox (simulador local); graph en producción'),
  GRAPH_API_URL: z.url({ error: 'GRAPH_API_URL debe ser una URL' }).default('https://graph.facebook.com/v21.0').describe('Base de la Graph API de Meta, con la versión'),
  MAILCHIMP_API_URL: z
    .string()
    .regex(/^https?:\/\/\S*\{dc\}\S*$/, { error: 'MAILCHIMP_API_URL debe ser una URL con {dc} donde va el servidor, como https://{dc}.api.mailchimp.com/3.0' })
    .default('https://{dc}.api.mailchimp.com/3.0').describe('Base de la API de Mailchimp con {dc} en lugar del servidor'),
  GOOGLE_OAUTH_AUTH_URL: z.url({ error: 'GOOGLE_OAUTH_AUTH_URL debe ser una URL' }).default('https://accounts.google.com/o/oauth2/v2/auth').describe('Página de consentimiento de Google (contactos de un teléfono)'),
  GOOGLE_OAUTH_TOKEN_URL: z.url({ error: 'GOOGLE_OAUTH_TOKEN_URL debe ser una URL' }).default('https://oauth2.googleapis.com/token').describe('Endpoint de tokens de Google'),
  GOOGLE_PEOPLE_API_URL: z.url({ error: 'GOOGLE_PEOPLE_API_URL debe ser una URL' }).default('https://people.googleapis.com/').describe('Raíz de la People API de Google (solo cuenta el origen)'),
  DIALOGFLOW_API_URL: z.url({ error: 'DIALOGFLOW_API_URL debe ser una URL' }).default('https://dialogflow.googleapis.com').describe('Raíz de la API de Dialogflow ES'),
  DIALOGFLOW_TOKEN_URL: z.url({ error: 'DIALOGFLOW_TOKEN_URL debe ser una URL' }).default('https://oauth2.googleapis.com/token').describe('Endpoint de tokens de las cuentas de servicio de Dialogflow'),
  MERCADOPAGO_API_URL: z.url({ error: 'MERCADOPAGO_API_URL debe ser una URL' }).default('https://api.mercadopago.com').describe('Raíz de la API de Mercado Pago (Checkout Pro y pagos de las órdenes)'),
  BOTS: z.enum(['on', 'off'], { error: "BOTS debe ser 'on' u 'off'" }).optional().describe('off: ningún bot de Dialogflow responde (on por defecto, off en pruebas)'),
  SANDBOX_STATUS_SECONDS: z.coerce.number().int().min(1).max(600).default(3).describe('Sandbox: segundos hasta delivered (read al doble)'),
  ORDER_RATE_LIMIT: z.coerce.number().int().min(1).default(30).describe('Pedidos que una dirección puede hacer en el catálogo público cada 10 minutos'),
  RATE_LIMIT_PUBLIC_READS: z.coerce.number({ error: 'RATE_LIMIT_PUBLIC_READS es un número de solicitudes por minuto' }).int().min(1).default(600).describe('Lecturas por minuto que una dirección puede hacer en las rutas públicas (catálogo, pedido, archivos de Drive, docs)'),
  RATE_LIMIT_PUBLIC_WRITES: z.coerce.number({ error: 'RATE_LIMIT_PUBLIC_WRITES es un número de solicitudes por minuto' }).int().min(1).default(120).describe('Escrituras por minuto que una dirección puede hacer en las rutas públicas (login, olvido, registro)'),
  RATE_LIMIT_API_KEYS: z.coerce.number({ error: 'RATE_LIMIT_API_KEYS es un número de solicitudes por minuto' }).int().min(1).default(600).describe('Solicitudes por minuto que una clave de API puede hacer (cada clave cuenta aparte; 429 con Retry-After al pasarse)'),
  RATE_LIMIT_WEBHOOKS: z.coerce.number({ error: 'RATE_LIMIT_WEBHOOKS es un número de solicitudes por minuto' }).int().min(1).default(12_000).describe('Solicitudes por minuto que una dirección puede hacer a los webhooks de proveedores'),
  WHATSAPP_THROUGHPUT: z.coerce.number().int().min(1).max(1_000_000).default(80).describe('Mensajes por segundo de campañas y masivos por línea de WhatsApp'),
  ANALYSIS: z.enum(['on', 'off'], { error: "ANALYSIS debe ser 'on' u 'off'" }).optional().describe('off: no se analizan conversaciones (on por defecto, off en pruebas)'),
  ANALYSIS_DEBOUNCE_SECONDS: z.coerce.number().int().min(1).max(600).default(10).describe('Segundos que espera el análisis de una empresa tras un mensaje nuevo'),
  EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30).describe('Días que se guardan los eventos de dominio ya repartidos (bus de eventos)'),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365).describe('Días que se guarda el registro de auditoría; las filas más viejas se borran por tandas cada día'),
  OUTBOUND_ALLOW_PRIVATE_URLS: z.enum(['0', '1'], { error: "OUTBOUND_ALLOW_PRIVATE_URLS debe ser '0' o '1'" }).optional().describe('1: las direcciones que escribe una compañía (tienda, sitio, API, motor de IA, archivo de plantilla) pueden ser internas; 0 por defecto'),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number({ error: 'WEBHOOK_TIMEOUT_SECONDS es un número de segundos' }).int().min(1).max(60).default(10).describe('Segundos que se espera la respuesta de un webhook de salida antes de contarlo como fallido y reintentarlo'),
  AUTOMATION_TIMER_LEASE_SECONDS: z.coerce
    .number({ error: 'AUTOMATION_TIMER_LEASE_SECONDS es un número de segundos' })
    .int()
    .min(5)
    .max(600)
    .default(45)
    .describe('Segundos que un proceso retiene los temporizadores de reglas que tomó; si muere (kill -9), otro los toma pasado ese tiempo y cada uno dispara una sola vez'),
  WEBHOOK_DELIVERY_LANES: z.coerce.number({ error: 'WEBHOOK_DELIVERY_LANES es un número' }).int().min(1).max(256).default(32).describe('Entregas de webhooks de salida que un proceso envía a la vez (en orden por suscripción y elemento)'),
  /** The name OUTBOUND_ALLOW_PRIVATE_URLS had when only the LLM base URL was judged (decision 0046): still read. */
  LLM_ALLOW_PRIVATE_URLS: z.enum(['0', '1'], { error: "LLM_ALLOW_PRIVATE_URLS debe ser '0' o '1'" }).optional().describe('Nombre anterior de OUTBOUND_ALLOW_PRIVATE_URLS (se sigue leyendo)'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'S3_BUCKET debe ser un nombre de bucket (3 a 63 minúsculas, dígitos, puntos o guiones)' })
    .optional()
    .describe('Bucket S3 (o compatible) donde van los archivos de Drive; sin él, quedan en DATA_DIR/drive'),
  S3_ENDPOINT: z.url({ error: 'S3_ENDPOINT debe ser una URL' }).optional().describe('Endpoint de un almacenamiento compatible con S3 (MinIO, R2, Spaces: https://minio.interno:9000); sin él, AWS S3 de S3_REGION'),
  S3_REGION: z.string().min(1).default('us-east-1').describe('Región del bucket (la que firma las solicitudes; auto en R2)'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional().describe('Clave de acceso de S3; sin ella (ni S3_SECRET_ACCESS_KEY), la cadena de credenciales de AWS (variables AWS_*, rol de la instancia)'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional().describe('Secreto de la clave de acceso de S3'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: "S3_FORCE_PATH_STYLE debe ser 'true' o 'false'" }).optional().describe('true: {endpoint}/{bucket}/{clave} en vez de {bucket}.{endpoint} (MinIO); por defecto true con S3_ENDPOINT'),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*$/, { error: "S3_PREFIX son carpetas terminadas en '/', como mostrador/ o prod/media/" })
    .default('')
    .describe("Carpeta dentro del bucket donde van los archivos (mostrador/), para compartir el bucket; vacío por defecto"),
  S3_SIGNED_URL_SECONDS: z.coerce
    .number({ error: 'S3_SIGNED_URL_SECONDS es un número de segundos' })
    .int()
    .min(60)
    .max(604_800)
    .default(3600)
    .describe('Segundos que vale el enlace firmado de un archivo que se entrega a WhatsApp, Messenger o Telegram para que lo descarguen'),
  METRICS_TOKEN: z.string().min(32, { error: 'METRICS_TOKEN debe tener al menos 32 caracteres' }).optional().describe('Token (≥ 32 caracteres) que /metrics exige como Bearer; sin él, /metrics solo responde a esta misma máquina'),
});

/** The keywords proxy-addr accepts for its ranges (loopback 127.0.0.1/8 and ::1, private ranges, link-local). */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (decision 0004): `false`/`0` (no proxy), a hop count, or the proxies' addresses
 * and CIDR ranges; never "trust everything" (any client would choose its own X-Forwarded-For).
 */
function trustProxyProblem(value: string): string | undefined {
  const v = value.trim();
  if (v === 'true') {
    return "'true' ya no se acepta: confiaba en cualquier X-Forwarded-For y un cliente podía elegir su dirección (y saltarse los límites). Escribe cuántos proxies tienes delante (TRUST_PROXY=1 detrás de un solo balanceador) o sus direcciones y rangos (TRUST_PROXY=10.0.0.5,10.0.1.0/24)";
  }
  if (v === '' || v === 'false' || /^\d+$/.test(v)) return undefined;
  const bad = v.split(',').map((e) => e.trim()).find((e) => !isAddressOrRange(e));
  return bad === undefined
    ? undefined
    : `'${bad}' no es una dirección ni un rango: escribe cuántos proxies tienes delante (TRUST_PROXY=1) o sus direcciones y rangos separados por comas (TRUST_PROXY=10.0.0.5,10.0.1.0/24; también loopback, linklocal, uniquelocal)`;
}

/** What Fastify's trustProxy gets: false, a hop count, or the list of trusted addresses and ranges. */
function trustProxyOf(value: string): false | number | string[] {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  return v.split(',').map((e) => e.trim());
}

/** Demo values of the webhook secrets outside production (docs/OPERATIONS.md drives the demo with them). */
export const demoWebhookSecrets = { metaAppSecret: 'mostrador-demo-app-secret', webhookVerifyToken: 'mostrador-demo-verify-token' };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  /** Key material for integration secrets at rest (lib/secret-box.ts). */
  secretsKey: string;
  accessTokenTtl: number;
  sessionTtlDays: number;
  smtpUrl?: string;
  mailFrom: string;
  seed: boolean;
  workers: 'inline' | 'off';
  bodyLimit: number;
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For is believed for the client address (limits, sessions):
   * false (none), the number of proxy hops in front, or their addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  webDist: string;
  version: string;
  /**
   * Meta app secret: the HMAC key of `X-Hub-Signature-256` on WhatsApp/Messenger webhooks.
   * Demo value outside production; unset in production → the webhooks answer 503.
   */
  metaAppSecret?: string;
  /** What Meta must send as `hub.verify_token` when subscribing a webhook (same rule). */
  webhookVerifyToken?: string;
  /** Meta app id: the Resumable Upload API (`/{app-id}/uploads`) of a template's media header example (decision 0038). */
  metaAppId?: string;
  /**
   * Who outbound chat messages go through (decision 0014): `graph`, Meta's Graph API (WhatsApp
   * Cloud API, Messenger Send API) with each channel's token; `sandbox`, a local stand-in that
   * accepts and reports statuses without reaching Meta. Default sandbox, graph in production.
   */
  sendProvider: 'graph' | 'sandbox';
  /** Base of the Graph API, version included (tests point it at a fake server). */
  graphApiUrl: string;
  /** Base of the Mailchimp Marketing API with `{dc}` for the server prefix (decision 0051; tests point it at a fake). */
  mailchimpApiUrl: string;
  /** Google's consent page, token endpoint and People API root (decision 0052; tests point them at a fake). */
  googleOAuthAuthUrl: string;
  googleOAuthTokenUrl: string;
  googlePeopleApiUrl: string;
  /** Dialogflow ES API root and the service accounts' token endpoint (decision 0053; tests point them at a fake). */
  dialogflowApiUrl: string;
  dialogflowTokenUrl: string;
  mercadoPagoApiUrl: string;
  /**
   * Dialogflow bots answer inbound chat messages (decision 0053). BOTS=on|off; on by default, off
   * in tests (a test that wants it says so: the demo's sandbox bot would answer every file's chats).
   */
  bots: boolean;
  /** Sandbox: seconds between the statuses it reports (sent → delivered → read). */
  sandboxStatusSeconds: number;
  /** Messages per second a company's WhatsApp line is sent at by campaigns and massive messages (Meta's default 80; decision 0041). */
  whatsappThroughput: number;
  /** Orders one client address may place on the public catalogue per 10 minutes (decision 0032). */
  orderRateLimit: number;
  /** Requests per minute one client address may make to the anonymous routes, by kind (decision 0004). */
  rateLimits: { publicReads: number; publicWrites: number; webhooks: number; apiKeys: number };
  /**
   * Conversation analysis as jobs (issue 14, decision 0044): a new message wakes its company's
   * job and a sweep every minute catches the rest. ANALYSIS=on|off; on by default, off in tests
   * (a test that wants it says so: the demo's chats would otherwise be analysed in every file).
   */
  analysis: boolean;
  /** Seconds a company's analysis waits after a new message, folding the others that arrive meanwhile into one job. */
  analysisDebounceSeconds: number;
  /** Days the spine keeps delivered domain events (decision 0068). */
  eventsRetentionDays: number;
  /** Days the audit log keeps its rows (decision 0072): older ones are deleted in batches by a daily job. */
  auditRetentionDays: number;
  /**
   * Whether the addresses a tenant types (a store, a site, an API or LLM base URL, a template's
   * file) may be private or loopback ones (OUTBOUND_ALLOW_PRIVATE_URLS=1, alias LLM_ALLOW_PRIVATE_URLS;
   * decision 0060): a self-hosted store on the server's own network. Off by default.
   */
  outboundAllowPrivateUrls: boolean;
  /** Outbound webhooks (decision 0073): the receiver's answer is awaited this long; this many are sent at once. */
  webhooks: { timeoutSeconds: number; lanes: number };
  /** Automation rules' timers (decision 0077): how long a claim is held before another process may take it. */
  automation: { timerLeaseSeconds: number };
  /** The bearer token /metrics asks for; without it only a scraper on this machine reads it (decision 0066). */
  metricsToken?: string;
  /**
   * Where Drive's bytes are kept (decisions 0056, 0105): the local disk under DATA_DIR/drive (the
   * embedded default), or an S3-compatible bucket when S3_BUCKET is set.
   */
  storage: StorageConfig;
}

export type StorageConfig =
  | { kind: 'file' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      /** Both or neither: without them the SDK's own chain (AWS_* variables, the instance's role). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
      /** '' or folders ending in '/'. */
      prefix: string;
      /** How long a link handed to a provider stays valid. */
      signedUrlSeconds: number;
    };

/** S3_* settings that mean nothing without S3_BUCKET. */
const s3Settings = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const;

function storageOf(e: z.infer<typeof envSchema>): StorageConfig {
  if (!e.S3_BUCKET) {
    const stray = s3Settings.filter((k) => e[k]);
    if (stray.length) throw new Error(`${stray.join(', ')} sin S3_BUCKET: falta el bucket donde van los archivos de Drive (o quita esas variables para guardarlos en DATA_DIR/drive)`);
    return { kind: 'file' };
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new Error('S3_ACCESS_KEY_ID y S3_SECRET_ACCESS_KEY van juntas: define las dos, o ninguna para usar la cadena de credenciales de AWS');
  }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
    forcePathStyle: (e.S3_FORCE_PATH_STYLE ?? (e.S3_ENDPOINT ? 'true' : 'false')) === 'true',
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    prefix: e.S3_PREFIX,
    signedUrlSeconds: e.S3_SIGNED_URL_SECONDS,
  };
}

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

function resolveFromInvocation(p: string): string {
  return path.isAbsolute(p) ? p : path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

/** A secret kept in DATA_DIR (mode 600, the directory 700) so tokens survive restarts of the embedded product. */
const localSecret = (dataDir: string) => privateSecret(dataDir, 'secret.key');

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Configuración inválida:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = resolveFromInvocation(e.DATA_DIR);
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new Error('JWT_SECRET es obligatorio en producción (al menos 32 caracteres)');
  }
  // Production never uses the demo webhook secrets: without them the webhooks refuse every call (503)
  const demoSecrets: Partial<typeof demoWebhookSecrets> = e.NODE_ENV === 'production' ? {} : demoWebhookSecrets;
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    jwtSecret: e.JWT_SECRET ?? (overrides.jwtSecret || localSecret(dataDir)),
    // without SECRETS_KEY, stored secrets are sealed with a key derived from the JWT secret
    secretsKey: e.SECRETS_KEY ?? `derived:${e.JWT_SECRET ?? (overrides.jwtSecret || localSecret(dataDir))}`,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    seed: e.SEED === 'true' && e.NODE_ENV !== 'production',
    workers: e.WORKERS,
    bodyLimit: e.BODY_LIMIT,
    logLevel: e.LOG_LEVEL,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    webDist: e.WEB_DIST ? resolveFromInvocation(e.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    version: pkg.version,
    metaAppSecret: e.META_APP_SECRET ?? demoSecrets.metaAppSecret,
    webhookVerifyToken: e.WEBHOOK_VERIFY_TOKEN ?? demoSecrets.webhookVerifyToken,
    metaAppId: e.META_APP_ID,
    sendProvider: e.SEND_PROVIDER ?? (e.NODE_ENV === 'production' ? 'graph' : 'sandbox'),
    graphApiUrl: e.GRAPH_API_URL.replace(/\/+$/, ''),
    mailchimpApiUrl: e.MAILCHIMP_API_URL.replace(/\/+$/, ''),
    googleOAuthAuthUrl: e.GOOGLE_OAUTH_AUTH_URL,
    googleOAuthTokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
    // the People API's paths start at the root: only the origin counts
    googlePeopleApiUrl: `${new URL(e.GOOGLE_PEOPLE_API_URL).origin}/`,
    sandboxStatusSeconds: e.SANDBOX_STATUS_SECONDS,
    dialogflowApiUrl: e.DIALOGFLOW_API_URL.replace(/\/+$/, ''),
    dialogflowTokenUrl: e.DIALOGFLOW_TOKEN_URL,
    mercadoPagoApiUrl: e.MERCADOPAGO_API_URL.replace(/\/+$/, ''),
    bots: (e.BOTS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    orderRateLimit: e.ORDER_RATE_LIMIT,
    rateLimits: { publicReads: e.RATE_LIMIT_PUBLIC_READS, publicWrites: e.RATE_LIMIT_PUBLIC_WRITES, webhooks: e.RATE_LIMIT_WEBHOOKS, apiKeys: e.RATE_LIMIT_API_KEYS },
    whatsappThroughput: e.WHATSAPP_THROUGHPUT,
    analysis: (e.ANALYSIS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    analysisDebounceSeconds: e.ANALYSIS_DEBOUNCE_SECONDS,
    eventsRetentionDays: e.EVENTS_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    outboundAllowPrivateUrls: (e.OUTBOUND_ALLOW_PRIVATE_URLS ?? e.LLM_ALLOW_PRIVATE_URLS) === '1',
    webhooks: { timeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS, lanes: e.WEBHOOK_DELIVERY_LANES },
    automation: { timerLeaseSeconds: e.AUTOMATION_TIMER_LEASE_SECONDS },
    metricsToken: e.METRICS_TOKEN || undefined,
    storage: storageOf(e),
    ...overrides,
  };
}
