import type { FacebookLabelSyncOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { type LabelClient, labelFailure, PAGE_LABEL_MAX, type PageLabel } from '../../integrations/meta/labels.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { labelClientOf, labelPageOf } from './page.js';

const fold = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/**
 * /etiquetas-facebook «Sincronizar con Facebook» (decision 0057): the page's Messenger labels and
 * the company's Facebook labels made one list, both ways. Facebook is read first; our rows change
 * in one transaction under the company's lock (two syncs at once wait for each other): a label
 * deleted at the page is removed here; then ours
 * that the page lacks are created there, each id stored as it comes (a crash in between is healed
 * by the next sync, which links the page's label by its name).
 */
export function createFacebookLabelSync(deps: { db: Db; secrets: Pick<SecretBox, 'open'>; config: Pick<Config, 'sendProvider' | 'graphApiUrl'>; client?: LabelClient }) {
  const { db } = deps;
  const client = deps.client ?? labelClientOf(deps.config);

  async function target(companyId: string) {
    const page = await labelPageOf(db, deps.secrets, companyId);
    if (typeof page === 'string') throw new AppError('CONFLICT', page);
    return page;
  }

  const refused = (error: unknown) => new AppError('PROVIDER_ERROR', labelFailure(error));

  return {
    async sync(companyId: string): Promise<FacebookLabelSyncOut> {
      const page = await target(companyId);
      let pageLabels: PageLabel[];
      try {
        pageLabels = await client.list(page);
      } catch (error) {
        throw refused(error);
      }
      const counts = { created: 0, linked: 0, renamed: 0, pushed: 0, missing: 0 };
      const toPush = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await t.execute(sql`select pg_advisory_xact_lock(hashtext(${`facebook-labels:${companyId}`}))`);
        const ours = await rowsOf<{ id: string; name: string; facebook_label_id: string | null }>(
          t,
          sql`select id, name, facebook_label_id from facebook_labels where company_id = ${companyId} order by created_at, id`,
        );
        const onPage = new Set(pageLabels.map((l) => l.id));
        // ours whose label was deleted at the page go too: the list mirrors the page (a label made
        // here and never sent has no id, and is created there below)
        const gone = ours.filter((o) => o.facebook_label_id && !onPage.has(o.facebook_label_id));
        for (const o of gone) await t.execute(sql`delete from facebook_labels where company_id = ${companyId} and id = ${o.id}`);
        counts.missing = gone.length;
        ours.splice(0, ours.length, ...ours.filter((o) => !gone.includes(o)));
        const byFacebookId = new Map(ours.filter((o) => o.facebook_label_id).map((o) => [o.facebook_label_id as string, o]));
        const names = new Set(ours.map((o) => fold(o.name)));
        for (const label of pageLabels) {
          const mine = byFacebookId.get(label.id);
          if (mine) {
            if (mine.name !== label.name && !names.has(fold(label.name))) {
              await t.execute(sql`update facebook_labels set name = ${label.name}, updated_at = now() where company_id = ${companyId} and id = ${mine.id}`);
              names.delete(fold(mine.name));
              names.add(fold(label.name));
              counts.renamed++;
            }
            continue;
          }
          const sameName = ours.find((o) => !o.facebook_label_id && fold(o.name) === fold(label.name));
          if (sameName) {
            await t.execute(sql`update facebook_labels set facebook_label_id = ${label.id}, updated_at = now() where company_id = ${companyId} and id = ${sameName.id}`);
            sameName.facebook_label_id = label.id;
            counts.linked++;
            continue;
          }
          // two page labels may share a name; ours are unique: the later one is told apart by its id
          const name = names.has(fold(label.name)) ? `${label.name.slice(0, PAGE_LABEL_MAX - 8)} (${label.id.slice(-4)})` : label.name;
          await t.execute(sql`insert into facebook_labels (company_id, name, facebook_label_id) values (${companyId}, ${name}, ${label.id})`);
          names.add(fold(name));
          counts.created++;
        }
        return ours.filter((o) => !o.facebook_label_id);
      });
      for (const o of toPush) {
        let made: PageLabel;
        try {
          made = await client.create(page, o.name);
        } catch (error) {
          throw refused(error);
        }
        await db.execute(sql`update facebook_labels set facebook_label_id = ${made.id}, updated_at = now() where company_id = ${companyId} and id = ${o.id} and facebook_label_id is null`);
        counts.pushed++;
      }
      const pageCount = pageLabels.length + counts.pushed;
      const changed = counts.created + counts.linked + counts.renamed + counts.pushed + counts.missing;
      const msg = changed
        ? `Etiquetas sincronizadas con Facebook: ${[
            counts.created && `${counts.created} nuevas desde la página`,
            counts.linked && `${counts.linked} enlazadas por nombre`,
            counts.renamed && `${counts.renamed} renombradas`,
            counts.pushed && `${counts.pushed} creadas en la página`,
            counts.missing && `${counts.missing} quitadas porque ya no están en la página`,
          ]
            .filter(Boolean)
            .join(', ')}`
        : `Las etiquetas ya coinciden con las ${pageCount} de la página`;
      return { msg, ...counts, pageLabels: pageCount };
    },
  };
}
