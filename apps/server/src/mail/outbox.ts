import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { mailOutbox } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Every e-mail is first a row in mail_outbox, written in the same transaction as the change
 * that causes it; a job then sends it by SMTP (SMTP_URL) or, without SMTP, logs it and marks
 * it 'logged' so the embedded product shows the link in its console.
 */
export function createMailer(config: Config, db: Db, jobs: JobQueue, log: FastifyBaseLogger) {
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;

  jobs.define<{ id: string }>('mail.send', async ({ id }) => {
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (!mail || mail.status === 'sent' || mail.status === 'logged') return;
    try {
      if (transport) {
        await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
      } else {
        log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'correo (sin SMTP_URL: solo registrado)');
      }
      await db
        .update(mailOutbox)
        .set({ status: transport ? 'sent' : 'logged', sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1` })
        .where(eq(mailOutbox.id, id));
    } catch (error) {
      await db
        .update(mailOutbox)
        .set({ status: 'failed', lastError: String(error), attempts: sql`${mailOutbox.attempts} + 1` })
        .where(eq(mailOutbox.id, id));
      throw error;
    }
  });

  return {
    /** Stores the mail (inside the caller's transaction); call `dispatch` after commit. */
    async enqueue(tx: Db, mail: Mail): Promise<string> {
      const [row] = await tx.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      return row.id;
    },
    async dispatch(id: string) {
      await jobs.send('mail.send', { id }, { singletonKey: id });
    },
    /** On boot: queue what a crash left pending. */
    async dispatchPending() {
      const pending = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
      for (const { id } of pending) await this.dispatch(id);
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
