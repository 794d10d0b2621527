import { seedDemoBoard } from './demo-board.js';
import { count, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { corporations, users } from '../db/schema.js';
import { createCorporation } from '../modules/corporations/service.js';
import { seedDemoAssignment, seedDemoLabelRoutes } from './demo-assignment.js';
import { seedDemoCatalog } from './assets/demo-catalog.js';
import { seedDemoChats } from './demo-chats.js';
import { seedDemoPerson } from './demo-person.js';
import { seedEcommerce } from './demo-ecommerce.js';
import { seedMarketplaces } from './demo-marketplace.js';
import { seedGenial } from './demo-genial.js';
import { seedDemoCampaigns } from './demo-campaigns.js';
import { seedDemoMassive } from './demo-massive.js';
import { seedTelegram } from './demo-telegram.js';
import { seedResources } from './demo-resources.js';
import { seedDemoTemplates } from './demo-templates.js';
import { seedDemoAds } from './demo-ads.js';
import { seedDemoTeam } from './demo-team.js';
import { seedDemoAttribution } from './demo-attribution.js';
import { seedDemoAudiences } from './demo-audiences.js';
import { seedDemoGoogle } from './demo-google.js';
import { seedDemoGravity } from './demo-gravity.js';
import { seedDemoMailchimp } from './demo-mailchimp.js';
import { seedDemoComments } from './demo-comments.js';
import { seedDemoDialogflow } from './demo-dialogflow.js';
import { seedDemoDrive } from './assets/demo-drive.js';
import { seedDemoFacebookLabelPeople } from './demo-facebook-labels.js';
import { markHistory } from '../spine/outbox.js';
import { seedDemoApiKeys } from './demo-api-keys.js';
import { seedDemoWebhooks } from './demo-webhooks.js';
import { seedDemoAutomation, seedDemoAutomationSettings } from './demo-automation.js';
import { seedDemoRecovery } from './demo-recovery.js';
import { seedDemoBusinessHours } from './demo-business-hours.js';
import { seedDemoScheduled } from './demo-scheduled.js';
import { seedDemoPayments } from './demo-payments.js';
import { seedDemoMetaCatalog } from './demo-meta-catalog.js';

/** The demo tenant, also written in the README. */
export const DEMO_PASSWORD = 'demo1234';
export const demoLogins = [
  { corporation: 'demo', email: 'admin@demo.com', role: 'admin', companies: 'Demo Perú, Demo Chile' },
  { corporation: 'demo', email: 'agente@demo.com', role: 'agente', companies: 'Demo Perú' },
  { corporation: 'acme', email: 'admin@acme.com', role: 'admin', companies: 'Acme' },
];

/**
 * Seeds the demo tenant when the database has no corporation at all. Never runs against a
 * database that already has data, and the caller never calls it in production.
 */
export async function seedDemo(db: Db, secrets: Pick<SecretBox, 'seal' | 'open'>): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(727002)');
    const [{ n }] = await tx.select({ n: count() }).from(corporations);
    if (Number(n) > 0) return false;
    const { companies: demoCompanies } = await createCorporation(tx, {
      slug: 'demo',
      name: 'Demo',
      companies: [
        { name: 'Demo Perú', country: 'PE' },
        { name: 'Demo Chile', country: 'CL' },
      ],
      users: [
        { email: 'admin@demo.com', first_name: 'Ana', last_name: 'Administradora', password: DEMO_PASSWORD, role: 'admin', companies: ['Demo Perú', 'Demo Chile'] },
        { email: 'agente@demo.com', first_name: 'Carlos', last_name: 'Agente', password: DEMO_PASSWORD, role: 'agent', companies: ['Demo Perú'] },
      ],
    });
    // Every standard resource shows its Spanish examples (and the volume lists more) in Demo Perú.
    const peru = demoCompanies.find((c) => c.name === 'Demo Perú');
    if (!peru) throw new Error('Demo Perú missing');
    await seedResources(tx, peru.id, secrets);
    await seedDemoChats(tx, peru.id);
    // the line's WhatsApp templates in every status (decision 0038)
    await seedDemoTemplates(tx, peru.id);
    await seedDemoCatalog(tx, peru.id);
    // the sandbox WooCommerce stores' catalogues, as already-synced records
    await seedEcommerce(tx, peru.id, secrets);
    // the sandbox marketplace accounts' products and orders, as already-synced records
    await seedMarketplaces(tx, peru.id, secrets);
    // Genial's sandbox settings and the orders' invoices in every state (decision 0037)
    await seedGenial(tx, peru.id, secrets);
    // a sandbox Telegram bot, its groups and routines with a few days of executions (decision 0040)
    await seedTelegram(tx, peru.id, secrets);
    // a campaign sent some weeks ago through the sending engine, and one planned (decision 0041)
    await seedDemoCampaigns(tx, peru.id, secrets);
    // massive sends and chat templates with mixed outcomes, for the two histories (decision 0042)
    await seedDemoMassive(tx, peru.id, secrets);
    // a person with chats on two channels and a duplicate to merge (decision 0029)
    await seedDemoPerson(tx, peru.id);
    // the admin and the agent user are agents with chats and leads of their own (decision 0025)
    await seedDemoAssignment(tx, peru.id);
    // a sandbox Meta ad account with six months of spend per campaign (decision 0047)
    await seedDemoAds(tx, peru.id, secrets);
    // «Clientes recurrentes» filled from a label in two past sends to the sandbox account (decision 0048)
    await seedDemoAudiences(tx, peru.id);
    // the first phone connected to the sandbox Google, most of its leads already its contacts (decision 0052)
    await seedDemoGoogle(tx, peru.id, secrets);
    // the sandbox Gravity Forms site: entries pulled into leads, one by webhook, one rejected (decision 0050)
    await seedDemoGravity(tx, peru.id, secrets);
    // the sandbox Mailchimp audiences: a pull and a labels sync with its per-contact report (decision 0051)
    await seedDemoMailchimp(tx, peru.id, secrets);
    // the sandbox Facebook page: comments its rules answered by Messenger, one refused, two waiting (decision 0049)
    await seedDemoComments(tx, peru.id, secrets);
    // the WhatsApp bot answers through the sandbox agent: a chat it answered, one it handed over (decision 0053)
    await seedDemoDialogflow(tx, peru.id, secrets);
    // labels routed to agents (/etiquetas-y-agentes, decision 0054): last, so the seeded leads stay as dealt
    await seedDemoLabelRoutes(tx, peru.id);
    // the page labels its Messenger leads' labels stand for, already on them at the sandbox page (decision 0057)
    await seedDemoFacebookLabelPeople(tx, peru.id);
    // Drive (decision 0056): the products' packshots, catalogues and price lists; Chile the packshots
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.com'));
    await seedDemoDrive(tx, peru.id, admin?.id ?? null);
    // the ERP's key in use and a Zapier flow's expired one (/configuracion/api, decision 0071)
    await seedDemoApiKeys(tx, peru.id, admin?.id ?? null);
    await seedDemoWebhooks(tx, peru.id, admin?.id ?? null, secrets);
    // automation rules with a week of runs (/automatizaciones, decision 0077)
    await seedDemoAutomation(tx, peru.id, admin?.id ?? null);
    await seedDemoAutomationSettings(tx, peru.id);
    await seedDemoRecovery(tx, peru.id);
    // business hours, the away message written but off (/configuracion/horario, decision 0078)
    await seedDemoBusinessHours(tx, peru.id, 'America/Lima', [
      { date: '2026-12-08', name: 'Inmaculada Concepción' },
      { date: '2026-12-25', name: 'Navidad' },
      { date: '2027-01-01', name: 'Año Nuevo' },
    ]);
    // two messages scheduled for next week (the strip above the composer, decision 0079)
    await seedDemoScheduled(tx, peru.id, admin?.id ?? null);
    // Mercado Pago in sandbox and the orders' payments in every state (decisions 0083, 0084)
    await seedDemoPayments(tx, peru.id, admin?.id ?? null, secrets);
    // the line's Meta catalogue synced and products sent in two chats (issue 30, decisions 0085 and 0086)
    await seedDemoMetaCatalog(tx, peru.id);
    // the pipeline board: leads in the company's stages and the history of how each got there (decision 0099); last
    await seedDemoBoard(tx, peru.id);
    // every conversation and order attributed to its ad, send or «Orgánico», a few sales after a send (decisions 0096, 0097)
    await seedDemoAttribution(tx, peru.id);
    // who answered the demo's conversations and how fast: the «Equipo» view (decision 0094)
    await seedDemoTeam(tx, peru.id);
    const chile = demoCompanies.find((c) => c.name === 'Demo Chile');
    if (chile)
      await seedDemoBusinessHours(tx, chile.id, 'America/Santiago', [
        { date: '2026-12-08', name: 'Inmaculada Concepción' },
        { date: '2026-12-25', name: 'Navidad' },
      ]);
    if (chile) await seedDemoDrive(tx, chile.id, admin?.id ?? null, (f) => f.folder === 'Productos');
    await createCorporation(tx, {
      slug: 'acme',
      name: 'Acme',
      companies: [{ name: 'Acme', country: 'CL' }],
      users: [{ email: 'admin@acme.com', first_name: 'Alicia', last_name: 'Acme', password: DEMO_PASSWORD, role: 'admin', companies: ['Acme'] }],
    });
    // the seeded records' events are their history, not news: no listener acts on them (no bot
    // answers a seeded message, no browser hears of it) — decision 0068
    await markHistory(tx);
    return true;
  });
}
