import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * One PostgreSQL schema for both PGlite and PostgreSQL (ARCHITECTURE §3).
 * Tenant tables carry company_id NOT NULL and lead their indexes with it.
 */
const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const corporations = pgTable('corporations', {
  id: id(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const companies = pgTable(
  'companies',
  {
    id: id(),
    corporationId: uuid('corporation_id')
      .notNull()
      .references(() => corporations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    country: text('country').notNull().default('PE'),
    settings: jsonb('settings').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('companies_corporation_name_uq').on(t.corporationId, t.name)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    corporationId: uuid('corporation_id')
      .notNull()
      .references(() => corporations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** Bumped on password change and disabling: tokens of an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    preferences: jsonb('preferences').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_corporation_email_uq').on(t.corporationId, t.email)],
);

export const memberships = pgTable(
  'memberships',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

/** The stored permission matrix (one row = one allowed role/module/action). */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    corporationId: uuid('corporation_id')
      .notNull()
      .references(() => corporations.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    module: text('module').notNull(),
    action: text('action').notNull(),
  },
  (t) => [primaryKey({ columns: [t.corporationId, t.role, t.module, t.action] })],
);

/** A signed-in browser: holds the refresh secret (hashed); revoking it ends its tokens at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull().unique(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * The rate limiter's counters (lib/rate-limit.ts, decision 0004): one row per server-derived key
 * (hashed), counted and admitted in one upsert, so every API server sees the same count.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
  /** Growing-delay rules: no hit is admitted before this. */
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  /** Whether the last hit was admitted (what the upsert's RETURNING reads). */
  admitted: boolean('admitted').notNull().default(true),
});

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

export const registrationTokens = pgTable('registration_tokens', {
  id: id(),
  tokenHash: text('token_hash').notNull().unique(),
  note: text('note'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  corporationId: uuid('corporation_id').references(() => corporations.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** Every e-mail goes through here first; a job sends it (SMTP) or, embedded, logs it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
);

/**
 * Live row counts of the standard resources per company, kept by statement-level triggers
 * (db/counters.ts): an unfiltered list answers its total from here instead of counting a
 * million rows. No foreign key: a company's cascade delete decrements these rows itself.
 */
export const resourceCounts = pgTable(
  'resource_counts',
  {
    companyId: uuid('company_id').notNull(),
    resource: text('resource').notNull(),
    /**
     * Concurrent writers add to different rows (the backend's, `pg_backend_pid() % 64`), so the
     * inbound burst's new people, leads and chats do not queue on one row per list; readers sum.
     */
    shard: smallint('shard').notNull().default(0),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.resource, t.shard] })],
);

/**
 * One row per process that works jobs (jobs/queue.ts), refreshed every few seconds: readiness
 * (`/api/health/ready`, decision 0066) asks whether some worker is alive, whichever process it is.
 */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * In-product notices (decision 0075): one per person and domain event, written by the spine's
 * `notifications` listener (the unique pair makes an event handed twice write nothing more) and
 * read under the header's bell by that person only, in the company it belongs to.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The event type it comes from (`webhook_subscription.paused`). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /** The domain event's public id. */
    eventId: uuid('event_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_user_event_uq').on(t.userId, t.eventId),
    // the bell: a person's notices in a company, newest first, and the unread ones counted
    index('notifications_user_idx').on(t.userId, t.companyId, t.createdAt.desc()),
    index('notifications_unread_idx').on(t.userId, t.companyId).where(sql`${t.readAt} is null`),
  ],
);
