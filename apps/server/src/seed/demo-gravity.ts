import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { gravityFormStates } from '../db/gravity-forms-tables.js';
import { gravityFormsTable } from '../db/resource-tables.js';
import { isGravitySandbox, sandboxSite } from '../integrations/gravity-forms/sandbox.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createEntryProcessor, formColumns, formOf, GRAVITY_PROVIDER } from '../modules/forms/entries.js';
import { storeEntry } from '../modules/gravity-forms/store.js';
import { stateOf, pullEntries } from '../modules/gravity-forms/sync.js';
import { createWebhookProcessor } from '../modules/webhooks/process.js';

/**
 * The demo's Gravity Forms (decision 0050): the forms on the sandbox site (`*.sandbox.test`) are
 * pulled once at seed time, so /gravity-forms starts with entries and the leads they made — one
 * merged into a lead the demo already had, one rejected for having neither phone nor e-mail (also
 * in «Eventos fallidos») — and the contact form gets a webhook secret and one entry that arrived
 * by webhook today. The third form points at a real site with no keys: its «Probar conexión» says
 * what is missing.
 */
export async function seedDemoGravity(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal' | 'open'>): Promise<void> {
  const processor = createWebhookProcessor(db, secrets, undefined, undefined, { providers: { [GRAVITY_PROVIDER]: createEntryProcessor(secrets) } });
  const rows = await db.select().from(gravityFormsTable).where(eq(formColumns.companyId, companyId));
  const forms = rows.map((r) => formOf(r as Record<string, unknown>, secrets)).filter((f) => isGravitySandbox(f.siteUrl));
  for (const form of forms) {
    await pullEntries({ db, secrets, processor }, companyId, form.id);
    await stateOf(db, form);
    if (form.formId !== 1) continue;
    await db
      .update(gravityFormStates)
      .set({ webhookSecret: secrets.seal('gfw_demo_sandbox_secret_0001'), webhookSecretHint: '…0001', webhookSecretAt: new Date() })
      .where(eq(gravityFormStates.formId, form.id));
    const site = sandboxSite(companyId, form.siteUrl, { consumerKey: form.consumerKey, consumerSecret: form.consumerSecret });
    const entry = site.submit(1, {
      '1.3': 'Valeria',
      '1.6': 'Gutiérrez',
      '2': 'valeria.gutierrez@gmail.com',
      '3': '912 345 678',
      '4': '¿Tienen canastas navideñas para empresas? Necesito 30.',
      '5': '1',
    }, new Date(Date.now() - 2 * 3600_000));
    const stored = await storeEntry(db, form, entry, 'webhook');
    if (stored.id) await processor.process(stored.id);
    // the pull already knows this entry (the next one asks after it)
    await db.update(gravityFormStates).set({ lastEntryId: Number(entry.id) }).where(eq(gravityFormStates.formId, form.id));
  }
}
