import type { AudienceSendStatus } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chatsTable, cleanLeadsTable, commentRulesTable, facebookAudiencesTable, groupsTable, leadsTable, mailchimpsTable, marketingSegmentsTable } from './resource-tables.js';
import { companies, users } from './schema.js';

/** Members of a group (SPEC §7 Groups: GET /groups/{id}/users, PUT /groups/{id}/users/). */
export const groupMembers = pgTable(
  'group_members',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groupsTable.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_company_user_idx').on(t.companyId, t.userId)],
);

/**
 * Channel settings of a company (issue 4): its WhatsApp line, its page (Messenger) and the
 * Instagram account linked to it. A provider event names only `provider_id` (phone number id,
 * page id, Instagram account id), so that id is unique per kind across all companies: an
 * event finds exactly one company, and the webhook job takes the company from here, never
 * from the payload. The access token is sealed (lib/secret-box.ts).
 */
export const channels = pgTable(
  'channels',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    providerId: text('provider_id').notNull(),
    businessAccountId: text('business_account_id'),
    displayPhoneNumber: text('display_phone_number'),
    name: text('name'),
    pageId: text('page_id'),
    accessToken: text('access_token'),
    accessTokenLast4: text('access_token_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('channels_company_kind_uq').on(t.companyId, t.kind), uniqueIndex('channels_kind_provider_uq').on(t.kind, t.providerId)],
);

/**
 * Every provider event received by a verified webhook, once: `(provider, event_id)` is the
 * provider's message id (WhatsApp `messages[].id`, `statuses[].id:status`, Messenger `mid`),
 * so a replayed delivery inserts nothing and enqueues nothing. The company is unknown until
 * the job resolves the channel, hence no company_id leading the indexes.
 * status: pending → processed | ignored (unknown channel, nothing to do) | failed (the dead
 * letter: it could not be stored as it came or kept failing after the queue's retries, with
 * last_error; an admin replays it back to pending, decision 0020).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    accountId: text('account_id').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_events_provider_event_uq').on(t.provider, t.eventId),
    index('webhook_events_status_idx').on(t.status, t.receivedAt),
  ],
);

/**
 * Who a platform user is in a company: one row per (company, platform, platform user id),
 * pointing at their lead and chat. The unique key makes find-or-create of a lead safe under
 * concurrent deliveries, and the lookup index-backed at any volume.
 */
export const leadIdentities = pgTable(
  'lead_identities',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id').notNull(),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leadsTable.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').references(() => chatsTable.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.platform, t.platformUserId] }), index('lead_identities_company_lead_idx').on(t.companyId, t.leadId)],
);

/**
 * Messages of a chat (SPEC §3 Chat: each with mid and isActive; §5 media kinds). A deleted
 * message is marked inactive. `provider_message_id` (the mid) is unique per company, so a
 * message is stored once however often it arrives. The thread reads by (company, chat, time).
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    kind: text('kind').notNull().default('text'),
    text: text('text'),
    mediaUrl: text('media_url'),
    mediaId: text('media_id'),
    mimeType: text('mime_type'),
    /** What the kind carries (location, contacts, order, referral, reply, reaction…): the contract's messageContent (decision 0020). */
    content: jsonb('content'),
    providerMessageId: text('provider_message_id'),
    status: text('status').notNull(),
    statusError: text('status_error'),
    isActive: boolean('is_active').notNull().default(true),
    /** The user who sent an outbound message (null for inbound ones and for a deleted user). */
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the thread: newest first from the index, `before` a sentAt (modules/chats/queries.ts)
    index('chat_messages_company_chat_sent_idx').on(t.companyId, t.chatId, t.sentAt, t.id),
    uniqueIndex('chat_messages_company_provider_id_uq').on(t.companyId, t.providerMessageId),
    // the sends a crash interrupted (modules/chats failInterrupted, on every start): the few
    // pending outbound messages, not a scan of every message ever kept
    index('chat_messages_pending_out_idx')
      .on(t.createdAt)
      .where(sql`${t.direction} = 'out' and ${t.status} = 'pending' and ${t.providerMessageId} is null`),
  ],
);

/**
 * The ads (click-to-WhatsApp, click-to-Messenger/Instagram) a lead came from (decision 0020):
 * one row per inbound message that carried a referral, with the provider's fields as the
 * contract's messageReferral. The message keeps it too (chat_messages.content.referral).
 */
export const leadReferrals = pgTable(
  'lead_referrals',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leadsTable.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    messageId: uuid('message_id').references(() => chatMessages.id, { onDelete: 'set null' }),
    referral: jsonb('referral').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_referrals_company_lead_idx').on(t.companyId, t.leadId, t.createdAt)],
);

/**
 * When the customer last wrote in a chat (one row per chat that has an inbound message),
 * kept by the webhook job. The WhatsApp/Messenger 24-hour window of a chat is this time plus
 * WHATSAPP_WINDOW_HOURS: the inbox reads it for its page by primary key instead of looking
 * through chat_messages, and the send refuses a free-form message outside it (decision 0014).
 */
export const chatWindows = pgTable('chat_windows', {
  chatId: uuid('chat_id')
    .primaryKey()
    .references(() => chatsTable.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }).notNull(),
  /**
   * When the customer's latest message reached us, by the server's clock (decision 0106): what is
   * new for the analysis, whatever time the provider stamped on the message.
   */
  lastArrivedAt: timestamp('last_arrived_at', { withTimezone: true }),
});

/**
 * A send of leads or clean leads to a Facebook custom audience (POST /leads/send-to-audience,
 * /clean-leads/send-to-audience; decisions 0015, 0048): what was asked, by whom, how many
 * matched, and how the `audience.upload` job is going. status: queued → uploading → finished |
 * failed (`reason`) | cancelado (the audience was deleted before the job ran);
 * pendiente-de-integracion for sends recorded before the upload existed.
 *
 * Resuming: people go in id order; `cursorId` is the last person of the last batch Meta accepted
 * (`batchesDone`). A batch is sent in Meta's upload session `sessionId` as `sessionSeq + 1`;
 * `inFlight` is set before the call and cleared with the batch's accept, so a crash between the
 * two (Meta's answer unknown) resumes in a new session: never the same batch twice in one
 * session. `leaseUntil`: the worker uploading it (renewed each batch; a crashed one expires).
 */
export const audienceSends = pgTable(
  'audience_sends',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    audienceId: uuid('audience_id').references(() => facebookAudiencesTable.id, { onDelete: 'set null' }),
    facebookAudienceId: text('facebook_audience_id'),
    labels: jsonb('labels').notNull(),
    showMissingLeads: boolean('show_missing_leads').notNull().default(false),
    count: integer('count').notNull(),
    marked: integer('marked'),
    status: text('status').$type<AudienceSendStatus>().notNull().default('queued'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    received: integer('received').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    batchesDone: integer('batches_done').notNull().default(0),
    batchesTotal: integer('batches_total').notNull().default(0),
    cursorId: uuid('cursor_id'),
    sessionId: text('session_id'),
    sessionSeq: integer('session_seq').notNull().default(0),
    inFlight: boolean('in_flight').notNull().default(false),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    reason: text('reason'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('audience_sends_company_created_idx').on(t.companyId, t.createdAt)],
);

/**
 * Which leads and clean leads were sent to which audience (one of lead_id / clean_lead_id is
 * set): showMissingLeads lists the records without a row here. Deleting the record or the
 * audience removes its rows.
 */
export const audienceMembers = pgTable(
  'audience_members',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    audienceId: uuid('audience_id')
      .notNull()
      .references(() => facebookAudiencesTable.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').references(() => leadsTable.id, { onDelete: 'cascade' }),
    cleanLeadId: uuid('clean_lead_id').references(() => cleanLeadsTable.id, { onDelete: 'cascade' }),
    sendId: uuid('send_id').references(() => audienceSends.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('audience_members_lead_uq').on(t.companyId, t.audienceId, t.leadId),
    uniqueIndex('audience_members_clean_lead_uq').on(t.companyId, t.audienceId, t.cleanLeadId),
  ],
);

/**
 * A Mailchimp sync (decision 0051). `labels`: the people of a set_mostrador_labels_massive call
 * with hasToSendToMailchimp (the segment's clean leads carrying one of `labelIds`) upserted in
 * every audience of the company with their labels as tags. `pull`: the members of one audience
 * (`mailchimpId`) brought into mailchimp_contacts. status: queued → running → done | failed; the
 * counts move as contacts are done (each one's row in mailchimp_sync_contacts), `heartbeatAt`
 * says the running sync is alive (one sync per company at a time, across processes).
 */
export const mailchimpLabelSyncs = pgTable(
  'mailchimp_label_syncs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'labels' | 'pull'>().notNull().default('labels'),
    segmentId: uuid('segment_id').references(() => marketingSegmentsTable.id, { onDelete: 'set null' }),
    mailchimpId: uuid('mailchimp_id').references(() => mailchimpsTable.id, { onDelete: 'set null' }),
    labelIds: jsonb('label_ids').notNull(),
    count: integer('count').notNull(),
    status: text('status').notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    ok: integer('ok').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    message: text('message'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [index('mailchimp_label_syncs_company_created_idx').on(t.companyId, t.createdAt)],
);

/**
 * A labels sync's people, taken once when it starts (their order is the sync's): each chunk is a
 * range of `seq` instead of the segment's query over the company's people again, so a sync of
 * 50,000 costs one pass, not one per chunk (decision 0051). Removed when the sync ends.
 */
export const mailchimpSyncPeople = pgTable(
  'mailchimp_sync_people',
  {
    syncId: uuid('sync_id')
      .notNull()
      .references(() => mailchimpLabelSyncs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    cleanLeadId: uuid('clean_lead_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.syncId, t.seq] })],
);

/**
 * A sync's report: one row per contact and audience as it is done (ok, error or skipped, with
 * the Spanish reason). A resumed sync skips the contacts that have their row. `contactKey` is the
 * clean lead's id (labels) or the e-mail (pull); the audience's name is kept with it, so the
 * report outlives a removed credential.
 */
export const mailchimpSyncContacts = pgTable(
  'mailchimp_sync_contacts',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    syncId: uuid('sync_id')
      .notNull()
      .references(() => mailchimpLabelSyncs.id, { onDelete: 'cascade' }),
    audienceKey: text('audience_key').notNull(),
    contactKey: text('contact_key').notNull(),
    audienceName: text('audience_name'),
    cleanLeadId: uuid('clean_lead_id'),
    email: text('email'),
    name: text('name'),
    outcome: text('outcome').$type<'ok' | 'error' | 'skipped'>().notNull(),
    reason: text('reason'),
    tags: jsonb('tags').notNull().default([]),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.syncId, t.audienceKey, t.contactKey] }), index('mailchimp_sync_contacts_company_sync_idx').on(t.companyId, t.syncId, t.outcome)],
);

/**
 * People merged into others (issue 11, decision 0029): one row per duplicate clean lead that
 * joined a kept one, written in the merge's transaction. A retried or concurrent merge finds
 * its row and changes nothing; an old link to the duplicate leads to the kept person.
 * `duplicate` keeps the removed clean lead as it was, and the counts what passed with it.
 */
export const personMerges = pgTable(
  'person_merges',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    duplicateId: uuid('duplicate_id').notNull(),
    keptId: uuid('kept_id').notNull(),
    duplicate: jsonb('duplicate').notNull(),
    leads: integer('leads').notNull(),
    chats: integer('chats').notNull(),
    messages: integer('messages').notNull(),
    mergedBy: uuid('merged_by').references(() => users.id, { onDelete: 'set null' }),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.duplicateId] }), index('person_merges_company_kept_idx').on(t.companyId, t.keptId)],
);

/**
 * Automatic assignment of a company (decision 0025; beyond the spec, off by default): whether a
 * new chat's unassigned lead is dealt to an available agent, among whom (all, by channel, by
 * label), and the round-robin's place (the agent dealt last). One row per company, locked while
 * dealing so two arrivals never get the same turn.
 */
export const assignmentSettings = pgTable('assignment_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  strategy: text('strategy').notNull().default('all'),
  lastAgenteId: uuid('last_agente_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The replies to Facebook comments (decision 0049): each private reply a rule sent (or tried),
 * and each answer a person gave from /comentarios-sin-respuesta, public or private. A comment
 * gets at most one private reply that is pending or sent (Facebook allows one); a failed one
 * keeps Facebook's reason in Spanish. A sent private reply names the lead and chat it opened.
 * The rule's detail screen lists its rows, newest first.
 */
export const commentReplies = pgTable(
  'comment_replies',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => commentRulesTable.id, { onDelete: 'set null' }),
    /** Who answered from the list (a reply of a rule has none). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    commentId: text('comment_id').notNull(),
    postId: text('post_id').notNull(),
    authorId: text('author_id'),
    authorName: text('author_name').notNull(),
    commentText: text('comment_text'),
    commentedAt: timestamp('commented_at', { withTimezone: true }),
    /** private (Messenger) or public (a comment under the comment). */
    mode: text('mode').notNull(),
    text: text('text').notNull(),
    /** pending, sent, failed. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    providerMessageId: text('provider_message_id'),
    recipientId: text('recipient_id'),
    leadId: uuid('lead_id').references(() => leadsTable.id, { onDelete: 'set null' }),
    chatId: uuid('chat_id').references(() => chatsTable.id, { onDelete: 'set null' }),
    /** When a worker took it (a crashed worker's claim expires). */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('comment_replies_private_once_uq').on(t.companyId, t.commentId).where(sql`mode = 'private' and status <> 'failed'`),
    index('comment_replies_rule_idx').on(t.companyId, t.ruleId, t.createdAt),
    index('comment_replies_person_post_idx').on(t.companyId, t.postId, t.authorId),
  ],
);

/**
 * The page's Messenger labels on people (decision 0057, «Etiquetas en las personas»): one row per
 * company, page label and person (PSID), what Mostrador wants (`wanted`: the lead has a Mostrador
 * label linked to that page label) and what Facebook was last told (`applied`). The leads' trigger
 * (migration 0043) writes `wanted` in the transaction that changes the lead's labels and marks the
 * row due; the facebook-labels job sends `POST` or `DELETE /{label-id}/label` while the two differ,
 * so an apply undone before it was sent sends nothing, and one undone while it was being sent is
 * followed by its removal. A failure keeps Facebook's reason in Spanish: retried later
 * (`due_at`) when it may pass (token, permission, throttling, no answer), else kept until the
 * label changes again or someone asks to retry.
 */
export const facebookLabelPeople = pgTable(
  'facebook_label_people',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The page label's id at Facebook. */
    pageLabelId: text('page_label_id').notNull(),
    /** The person's page-scoped id. */
    psid: text('psid').notNull(),
    leadId: uuid('lead_id').references(() => leadsTable.id, { onDelete: 'set null' }),
    wanted: boolean('wanted').notNull(),
    applied: boolean('applied').notNull().default(false),
    /** When to send next; null: nothing to send (settled, or failed for good). */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** When a worker took it (a crashed worker's claim expires). */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** Facebook's refusal of the last try, in Spanish (null once sent). */
    reason: text('reason'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.pageLabelId, t.psid] }),
    index('facebook_label_people_due_idx').on(t.dueAt).where(sql`due_at is not null`),
    index('facebook_label_people_failed_idx').on(t.companyId, t.failedAt).where(sql`reason is not null`),
  ],
);

/**
 * «Enviar más tarde» (issue 29, decision 0079): a composer's message kept to go at `send_at`
 * (a text, a file by link, or a template with its values in `template`, the contract's
 * templateSendInput). The `chat.scheduled-send` job claims the due ones (status sending,
 * `claimed_at` a lease: a dead process's claim is taken again after 90 s) and sends each through
 * the chat's send with a message id named by this row, so it goes once; then sent (`message_id`)
 * or failed with the reason (`error`). Editable and cancellable only while pending.
 */
export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('text'),
    text: text('text'),
    template: jsonb('template'),
    /** A file's link (image, video, audio, document), as the composer sends it. */
    media: text('media'),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    error: text('error'),
    messageId: uuid('message_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('scheduled_messages_due_idx').on(t.sendAt).where(sql`status = 'pending'`),
    index('scheduled_messages_sending_idx').on(t.claimedAt).where(sql`status = 'sending'`),
    index('scheduled_messages_company_chat_idx').on(t.companyId, t.chatId, t.sendAt),
  ],
);
