import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './schema.js';

/**
 * Drive, the company's media library (issue 15, decision 0056). The bytes live in the drive
 * storage (modules/drive/storage.ts) under the company and their SHA-256; a row is the file's
 * name, folder and type. The id is random and unguessable: it is the secret of the file's public
 * address. The same bytes are kept once per company (the unique sha256).
 */
export const driveFiles = pgTable(
  'drive_files',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    folder: text('folder').notNull().default(''),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    // the public address names only the id: found without the company
    uniqueIndex('drive_files_id_uq').on(t.id),
    uniqueIndex('drive_files_sha_uq').on(t.companyId, t.sha256),
    index('drive_files_created_idx').on(t.companyId, t.createdAt.desc(), t.id),
    index('drive_files_folder_idx').on(t.companyId, t.folder),
    index('drive_files_name_idx').on(t.companyId, sql`lower(${t.name})`),
  ],
);
