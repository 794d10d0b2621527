/**
 * Every job queue of the product, in one place (issue 27): its exact name, the module that
 * defines it, what one job does, its schedule and its options. `createJobQueue` (queue.ts)
 * refuses to define or schedule a queue that is not here, takes a queue's options from here and
 * schedules it on the cron written here, so a schedule or an expiry is written once. Each module
 * defines its queues in its own `jobs.ts` (a Fastify plugin its routes plugin registers), where
 * the names' constants live; test/job-catalogue.test.ts checks that the queues a built app
 * defines are exactly these, and docs/OPERATIONS.md's table is `npm run jobs -- --write`.
 */
export interface QueueEntry {
  /** The module that defines the queue: apps/server/src/modules/<module>, or `mail` (mail/outbox.ts). */
  module: string;
  /** What one job does, in a line. */
  does: string;
  /**
   * When pg-boss sends a job by itself: a cron expression in UTC (one process sends each
   * occurrence, however many run). `onStart`: a worker that starts (after a crash, a deploy) sends
   * one at once instead of waiting for the next tick. Only a module that calls `every` schedules it.
   */
  schedule?: { cron: string; onStart?: boolean };
  /** How long a job may stay active before it is tried again (pg-boss's default: 15 minutes). */
  expireInSeconds?: number;
  /** How many batches one process works at once (default 1): for handlers safe side by side. */
  lanes?: number;
}

const EVERY_MINUTE = '* * * * *';

export const queueCatalogue = {
  'attribution.reattribute': {
    module: 'attribution',
    does: "Attributes a company's conversations and orders again after its attribution settings changed (window, last or first touch)",
    expireInSeconds: 1800,
  },
  'automation.timers': {
    module: 'automation',
    does: "Fires the automation rules' timers that came due (no reply, no activity, the window closing, an order left in a status), each once",
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 300,
  },
  'analysis.company': {
    module: 'analysis',
    does: "Analyses one company's dirty chats (debounced per company), then hands over to a new job if more are left",
    expireInSeconds: 120,
  },
  'analysis.sweep': {
    module: 'analysis',
    does: 'Wakes the analysis of every company with chats changed since their analysis, or never analysed',
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 60,
  },
  'audience.upload': {
    module: 'leads',
    does: "Uploads a recorded send of leads to the company's Meta Custom Audience, batch by batch",
    expireInSeconds: 1800,
  },
  'audit.retention': {
    module: 'audit-log',
    does: 'Deletes the audit log rows older than AUDIT_RETENTION_DAYS, in batches of 5,000',
    schedule: { cron: '15 3 * * *' },
    expireInSeconds: 900,
  },
  'recovery.sweep': {
    module: 'recovery',
    does: 'Decides the sales follow-up of every conversation due one (purchase intent, no order within the hours): sent once, or why not',
    schedule: { cron: '*/10 * * * *', onStart: true },
    expireInSeconds: 600,
  },
  'chat.sandbox-status': { module: 'chats', does: 'Applies a delivery status the sandbox provider reports for a sent message' },
  'chat.send': { module: 'chats', does: 'Sends one chat of a massive message (its message id decided when queued, so a retry never sends twice)' },
  'chat.scheduled-send': {
    module: 'chats',
    does: "Sends the composer's scheduled messages whose minute came (claimed with a lease, each once by its message id), or records why not",
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 300,
  },
  'chat.snooze-sweep': {
    module: 'chats',
    does: 'Opens again every snoozed chat whose time has passed (a lost or late wake-up, a server that was down)',
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 60,
  },
  'chat.snooze-wake': { module: 'chats', does: 'Opens a snoozed chat again when its time comes' },
  'conversions-api.send': {
    module: 'conversions-api',
    does: "Sends a company's pending Purchase and LeadSubmitted events to Meta's Conversions API in batches of up to 1,000, retrying with growing waits within the click's 7 days",
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 300,
  },
  'dialogflow.answer': {
    module: 'dialogflow',
    does: "The chat's Dialogflow bot answers one inbound message, or hands the chat to a person",
    expireInSeconds: 120,
    lanes: 2,
  },
  'ecommerce.sync': { module: 'ecommerce', does: "Runs one WooCommerce sync run (pull or push of a store's products and orders), resuming at its cursor" },
  'facebook-labels-people': {
    module: 'facebook-labels',
    does: "Puts and removes the Facebook page's labels on people, for the rows that are due",
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 300,
  },
  'genial.issue': { module: 'genial', does: "Issues one order's invoice with Genial, or asks Genial again about a pending one" },
  'genial.sweep': {
    module: 'genial',
    does: "Queues the invoices of orders that arrived with no job yet, lost jobs, and Genial's pending ones",
    schedule: { cron: EVERY_MINUTE },
  },
  'google-people.sync': { module: 'google-people', does: "Runs one sync of a phone's Google contacts with the company's leads", expireInSeconds: 900 },
  'gravity-forms.sync': { module: 'gravity-forms', does: "Pulls a Gravity Forms form's entries page by page into leads", expireInSeconds: 900 },
  'mail.send': { module: 'mail', does: 'Sends one e-mail of mail_outbox by SMTP, or logs it when there is no SMTP_URL' },
  'mailchimp.sync-labels': { module: 'leads', does: "Runs one Mailchimp sync of labelled leads (the mailchimp module's runner)" },
  'marketplace.bulk': { module: 'marketplace', does: 'Applies one bulk update of marketplace prices and stock: sends the rows that change, in feeds of up to 1,000 SKUs' },
  'marketplace.sync': { module: 'marketplace', does: "Runs one sync of a marketplace account's products and orders, resuming where it was" },
  'meta-ads.sync': {
    module: 'meta-ads',
    does: "Syncs the spend of one company's Meta ad account, or of every company's each morning",
    schedule: { cron: '30 6 * * *' },
    expireInSeconds: 300,
  },
  'meta-catalog.sync': { module: 'meta-catalog', does: "Sends a company's products to its WhatsApp line's Meta catalogue (only what changed) and records Meta's per-item verdicts", expireInSeconds: 900 },
  'metrics.fold': {
    module: 'metrics',
    does: 'Folds the rollup rows writers staged into the metrics rollups, every company that has some',
    schedule: { cron: EVERY_MINUTE },
    expireInSeconds: 300,
  },
  'metrics.rebuild': { module: 'metrics', does: "Rebuilds a company's metrics rollups in its new time zone, once", expireInSeconds: 1800 },
  'sending.run': { module: 'sending', does: "A company's sending runner: sends what the company has queued, at each line's pace", expireInSeconds: 120 },
  'sending.sweep': {
    module: 'sending',
    does: 'Wakes scheduled chunks whose time came, and companies with work but no live runner',
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 60,
  },
  'telegram.schedule': {
    module: 'telegram',
    does: "Executes the Telegram routines due this minute (each company's own time zone)",
    schedule: { cron: EVERY_MINUTE },
  },
  'webhook.process': {
    module: 'webhooks',
    does: 'Processes one stored provider event (WhatsApp, Messenger, Instagram, Gravity Forms) into chats, leads and their effects',
    expireInSeconds: 60,
    // WEBHOOK_LANES (modules/webhooks/routes.ts): events mostly wait on the database, and one person's are serialised by a lock
    lanes: 4,
  },
  'webhooks.deliver': {
    module: 'webhook-subscriptions',
    does: "Sends the outbound webhooks' deliveries that are due (retries, a dead worker's claims); the spine's fan-out sends new ones at once",
    schedule: { cron: EVERY_MINUTE, onStart: true },
    expireInSeconds: 300,
  },
  'whatsapp-templates.sandbox-review': { module: 'whatsapp-templates', does: "Ends the sandbox's review of a new template with a sync of the company's templates" },
  'woocommerce.trash': { module: 'ecommerce', does: "Sends a removed product to its WooCommerce store's trash (retried while the store is unreachable)" },
  'woocommerce.webhook': { module: 'ecommerce', does: "Processes one stored WooCommerce webhook delivery (the topic asked of the store)" },
} as const satisfies Record<string, QueueEntry>;

export type QueueName = keyof typeof queueCatalogue;
export type QueueCatalogue = Record<string, QueueEntry>;

/** The catalogue as a Markdown table, one row per queue by name (`npm run jobs`, docs/OPERATIONS.md). */
export function catalogueTable(catalogue: QueueCatalogue = queueCatalogue): string {
  const rows = Object.entries(catalogue)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, q]) => {
      const schedule = q.schedule ? `\`${q.schedule.cron}\`${q.schedule.onStart ? ' y al arrancar' : ''}` : '';
      return `| \`${name}\` | ${q.module} | ${q.does} | ${schedule} | ${q.expireInSeconds ?? ''} | ${q.lanes ?? ''} |`;
    });
  return ['| cola | módulo | qué hace | programación (UTC) | expira (s) | carriles |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
