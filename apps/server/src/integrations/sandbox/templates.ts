import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { toGraphTemplate } from '../meta/template-mapping.js';
import { ProviderError } from '../meta/send.js';
import type { GraphTemplate, TemplateClient } from '../meta/templates.js';

/** A template whose body contains this word is rejected by the sandbox's review (decision 0038). */
export const SANDBOX_REJECT_WORD = '#rechazo';
/** The sandbox "reviews" a submitted template in this many seconds. */
export const SANDBOX_REVIEW_SECONDS = 10;
const PAGE_SIZE = 25;

/**
 * The sandbox's template API (SEND_PROVIDER=sandbox, the default outside production): it never
 * reaches Meta. What Meta would hold for a WABA is what Mostrador stored for it (so a restart
 * keeps every template), and the sandbox plays Meta's review: a PENDING template is APPROVED
 * SANDBOX_REVIEW_SECONDS after it was submitted, or REJECTED (INVALID_FORMAT) when its body
 * has '#rechazo'. The other statuses (PAUSED, DISABLED, a REJECTED of the demo) stay as they
 * are, and so does a PENDING template the sandbox did not receive (the demo's seeded one). Lists come in pages of 25 with Meta's `paging.cursors.after` / `paging.next`.
 */
export function createSandboxTemplateClient(db: Db): TemplateClient {
  const rowsOf = async <T>(q: SQL) => (await db.execute(q)).rows as T[];
  return {
    name: 'sandbox',
    async page(account, after) {
      const offset = after ? Number.parseInt(Buffer.from(after, 'base64url').toString('utf8'), 10) || 0 : 0;
      const rows = await rowsOf<{
        provider_id: string | null;
        name: string;
        language: string;
        category: string;
        status: string;
        reason: string | null;
        header: never;
        body: string;
        body_examples: string[];
        footer: string | null;
        buttons: never;
        created_at: Date | string;
      }>(
        sql`select distinct on (name, language) provider_id, name, language, category, status, reason, header, body, body_examples, footer, buttons, created_at
            from whatsapp_templates where business_account_id = ${account.businessAccountId}
            order by name, language, created_at limit ${PAGE_SIZE + 1} offset ${offset}`,
      );
      const now = Date.now();
      const data: GraphTemplate[] = rows.slice(0, PAGE_SIZE).map((r) => {
        // only what the sandbox itself received is reviewed: the demo's seeded PENDING template stays in review
        const reviewed = r.status === 'PENDING' && !!r.provider_id?.startsWith(SANDBOX_ID_PREFIX) && now - new Date(r.created_at).getTime() >= SANDBOX_REVIEW_SECONDS * 1000;
        const rejected = reviewed && r.body.toLowerCase().includes(SANDBOX_REJECT_WORD);
        const status = reviewed ? (rejected ? 'REJECTED' : 'APPROVED') : r.status;
        const { components } = toGraphTemplate({
          name: r.name,
          language: r.language,
          category: r.category as 'MARKETING',
          header: r.header ?? undefined,
          body: r.body,
          bodyExamples: r.body_examples ?? [],
          footer: r.footer ?? undefined,
          buttons: r.buttons ?? [],
          variableFields: [],
        });
        return {
          id: r.provider_id ?? sandboxId(),
          name: r.name,
          language: r.language,
          category: r.category,
          status,
          ...(status === 'REJECTED' ? { rejected_reason: rejected ? 'INVALID_FORMAT' : (r.reason ?? 'NONE') } : {}),
          components,
        };
      });
      const more = rows.length > PAGE_SIZE;
      const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
      return {
        data,
        paging: {
          cursors: { before: cursor(offset), after: cursor(offset + data.length) },
          ...(more ? { next: `sandbox://message_templates?after=${cursor(offset + data.length)}` } : {}),
        },
      };
    },
    async create(account, template) {
      if (!account.businessAccountId) throw new ProviderError('Falta el ID de la cuenta de WhatsApp Business');
      return { id: sandboxId(), status: 'PENDING', category: template.category };
    },
    async remove() {},
    // the sandbox keeps the link as the example's handle
    async uploadExample(_account, mediaUrl) {
      return mediaUrl;
    },
  };
}

/** The ids the sandbox gives the templates it receives (numeric, as Meta's). */
const SANDBOX_ID_PREFIX = '55';
const sandboxId = () => `${SANDBOX_ID_PREFIX}${BigInt(`0x${randomBytes(6).toString('hex')}`).toString().padStart(13, '0').slice(0, 13)}`;
