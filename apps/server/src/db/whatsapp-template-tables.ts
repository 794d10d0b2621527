import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * WhatsApp message templates (issue 13, decision 0038): the company's templates of its line's
 * WhatsApp Business Account, as submitted to and synced from Meta's template API. Keys and
 * indexes lead with company_id (ARCHITECTURE §3, §10).
 */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The WhatsApp Business Account (WABA) id of the line: templates belong to it at Meta. */
    businessAccountId: text('business_account_id').notNull(),
    /** Meta's template id (absent until Meta accepted the submission). */
    providerId: text('provider_id'),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED (Meta's words). */
    status: text('status').notNull(),
    /** Meta's rejected_reason (or the reason of a pause), as Meta sends it. */
    reason: text('reason'),
    /** { format, text?, example?, mediaUrl? } */
    header: jsonb('header'),
    body: text('body').notNull(),
    bodyExamples: jsonb('body_examples').notNull().default([]),
    footer: text('footer'),
    buttons: jsonb('buttons').notNull().default([]),
    /** Which lead field prefills each body variable when sent from a chat (ours, not Meta's). */
    variableFields: jsonb('variable_fields').notNull().default([]),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_templates_company_waba_name_lang_uq').on(t.companyId, t.businessAccountId, t.name, t.language),
    index('whatsapp_templates_company_waba_status_idx').on(t.companyId, t.businessAccountId, t.status),
  ],
);
