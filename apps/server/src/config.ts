import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { privateSecret } from './lib/data-dir.js';

/**
 * Every setting the server reads, in one place (docs/OPERATIONS.md lists them).
 * Relative paths resolve against the directory `npm` was started from (INIT_CWD), so
 * `npm start` at the repository root keeps its data in ./data.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SECRETS_KEY: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).default(900),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Mostrador <no-reply@mostrador.local>'),
  SEED: z.enum(['true', 'false']).default('true'),
  WORKERS: z.enum(['inline', 'off']).default('inline'),
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_DIST: z.string().optional(),
  META_APP_SECRET: z.string().min(1).optional(),
  META_APP_ID: z.string().regex(/^\d+$/, { error: 'META_APP_ID son solo dígitos' }).optional(),
  WEBHOOK_VERIFY_TOKEN: z.string().min(1).optional(),
  SEND_PROVIDER: z.enum(['graph', 'sandbox'], { error: "SEND_PROVIDER debe ser 'graph' o 'sandbox'" }).optional(),
  GRAPH_API_URL: z.url({ error: 'GRAPH_API_URL debe ser una URL' }).default('https://graph.facebook.com/v21.0'),
  MAILCHIMP_API_URL: z
    .string()
    .regex(/^https?:\/\/\S*\{dc\}\S*$/, { error: 'MAILCHIMP_API_URL debe ser una URL con {dc} donde va el servidor, como https://{dc}.api.mailchimp.com/3.0' })
    .default('https://{dc}.api.mailchimp.com/3.0'),
  GOOGLE_OAUTH_AUTH_URL: z.url({ error: 'GOOGLE_OAUTH_AUTH_URL debe ser una URL' }).default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: z.url({ error: 'GOOGLE_OAUTH_TOKEN_URL debe ser una URL' }).default('https://oauth2.googleapis.com/token'),
  GOOGLE_PEOPLE_API_URL: z.url({ error: 'GOOGLE_PEOPLE_API_URL debe ser una URL' }).default('https://people.googleapis.com/'),
  DIALOGFLOW_API_URL: z.url({ error: 'DIALOGFLOW_API_URL debe ser una URL' }).default('https://dialogflow.googleapis.com'),
  DIALOGFLOW_TOKEN_URL: z.url({ error: 'DIALOGFLOW_TOKEN_URL debe ser una URL' }).default('https://oauth2.googleapis.com/token'),
  BOTS: z.enum(['on', 'off'], { error: "BOTS debe ser 'on' u 'off'" }).optional(),
  SANDBOX_STATUS_SECONDS: z.coerce.number().int().min(1).max(600).default(3),
  ORDER_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  WHATSAPP_THROUGHPUT: z.coerce.number().int().min(1).max(1_000_000).default(80),
  ANALYSIS: z.enum(['on', 'off'], { error: "ANALYSIS debe ser 'on' u 'off'" }).optional(),
  ANALYSIS_DEBOUNCE_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  LLM_ALLOW_PRIVATE_URLS: z.enum(['0', '1'], { error: "LLM_ALLOW_PRIVATE_URLS debe ser '0' o '1'" }).default('0'),
});

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
  trustProxy: boolean;
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
  /**
   * Conversation analysis as jobs (issue 14, decision 0044): a new message wakes its company's
   * job and a sweep every minute catches the rest. ANALYSIS=on|off; on by default, off in tests
   * (a test that wants it says so: the demo's chats would otherwise be analysed in every file).
   */
  analysis: boolean;
  /** Seconds a company's analysis waits after a new message, folding the others that arrive meanwhile into one job. */
  analysisDebounceSeconds: number;
  /** Whether a company's OpenAI-compatible base URL may be an internal address (LLM_ALLOW_PRIVATE_URLS=1; decision 0046). */
  llmAllowPrivateUrls: boolean;
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
    trustProxy: e.TRUST_PROXY === 'true',
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
    bots: (e.BOTS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    orderRateLimit: e.ORDER_RATE_LIMIT,
    whatsappThroughput: e.WHATSAPP_THROUGHPUT,
    analysis: (e.ANALYSIS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    analysisDebounceSeconds: e.ANALYSIS_DEBOUNCE_SECONDS,
    llmAllowPrivateUrls: e.LLM_ALLOW_PRIVATE_URLS === '1',
    ...overrides,
  };
}
