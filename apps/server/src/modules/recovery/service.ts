import {
  RECOVERY_DEFAULT_HOURS,
  RECOVERY_DEFAULT_TEXT,
  RECOVERY_INTENT_MOTIVES,
  RECOVERY_MAX_AGE_DAYS,
  RECOVERY_WINDOW_HOURS,
  type RecoveryFollowup,
  recoveryMessages,
  type RecoverySettingsIn,
  type RecoverySettingsOut,
  templateCostUsd,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, isoOf, rowsOf } from '../../db/database.js';
import { actingAs } from '../../db/actor.js';
import { AppError } from '../../lib/errors.js';
import { stableId } from '../../lib/stable-id.js';
import { assignChat } from '../assignment/auto.js';

/** A product the reply assistant recognised in what the person wrote (modules/assistant). */
export interface MatchedProduct {
  productId: string;
  /** The variant's SKU when it is one, else the product's. */
  sku: string;
  name: string;
  quantity: number;
  available: boolean;
}
export type Matcher = (db: Db, companyId: string, text: string) => Promise<MatchedProduct[]>;

export interface RecoveryDeps {
  db: Db;
  publicUrl: string;
  match: Matcher;
  sendText: (companyId: string, chatId: string, text: string, messageId: string) => Promise<void>;
  sendTemplate: (companyId: string, chatId: string, input: { templateId: string; bodyValues: string[] }, messageId: string) => Promise<void>;
  notifyAgent: (companyId: string, agentId: string, notice: { kind: string; title: string; body: string; link: string | null }, id: string) => Promise<boolean>;
}

interface SettingsRow extends Record<string, unknown> {
  enabled: boolean;
  after_hours: number;
  text: string;
  template_id: string | null;
  template_values: string[];
  updated_at: string | Date | null;
}

/** A conversation that may get a follow-up: the sweep's candidate. */
interface Candidate extends Record<string, unknown> {
  company_id: string;
  chat_id: string;
  lead_id: string | null;
  platform: string;
  name: string;
  sentiment: string;
  episode_id: string;
  last_in_at: string | Date;
  template_id: string | null;
  template_values: string[];
  text: string;
  catalog_id: string | null;
  country: string;
}

const WINDOW_MS = 24 * 3_600_000;
const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;
const fill = (text: string, values: { nombre: string; enlace: string; productos: string }) =>
  text.replaceAll('{nombre}', values.nombre).replaceAll('{enlace}', values.enlace).replaceAll('{productos}', values.productos);
const listOf = (names: string[]) => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} y ${names.at(-1)}`);

/**
 * The sales recovery (decision 0089): the company's settings, the sweep that decides each
 * conversation's follow-up once (recorded in `sales_followups`, sent or not and why), and the list
 * the settings screen shows. The sweep runs as the `recovery.sweep` job (jobs.ts) and on «Revisar
 * ahora»; the metric «Ventas recuperadas» reads the same table (modules/metrics).
 */
export function createRecovery(deps: RecoveryDeps) {
  const { db } = deps;

  async function defaultCatalog(companyId: string): Promise<string | null> {
    const [row] = await rowsOf<{ id: string }>(db, sql`select id from catalogs where company_id = ${companyId} and is_default limit 1`);
    return row?.id ?? null;
  }

  async function get(companyId: string): Promise<RecoverySettingsOut> {
    const [row] = await rowsOf<SettingsRow>(db, sql`select * from recovery_settings where company_id = ${companyId}`);
    const [template] = row?.template_id
      ? await rowsOf<{ category: string; country: string }>(
          db,
          sql`select t.category, co.country from whatsapp_templates t join companies co on co.id = t.company_id where t.company_id = ${companyId} and t.id = ${row.template_id}`,
        )
      : [];
    return {
      enabled: row?.enabled ?? false,
      afterHours: row ? Number(row.after_hours) : RECOVERY_DEFAULT_HOURS,
      text: row?.text ?? RECOVERY_DEFAULT_TEXT,
      templateId: row?.template_id ?? null,
      templateValues: row?.template_values ?? [],
      templateCost: template ? { usd: templateCostUsd(template.category as never, template.country, false), category: template.category } : null,
      catalogId: await defaultCatalog(companyId),
      updatedAt: row ? isoOf(row.updated_at) : null,
    };
  }

  async function put(companyId: string, input: RecoverySettingsIn): Promise<RecoverySettingsOut> {
    if (input.templateId) {
      const [t] = await rowsOf<{ status: string }>(db, sql`select status from whatsapp_templates where company_id = ${companyId} and id = ${input.templateId}`);
      if (!t) throw new AppError('VALIDATION', recoveryMessages.unknownTemplate, [{ path: 'templateId', msg: recoveryMessages.unknownTemplate }]);
      if (t.status !== 'APPROVED') throw new AppError('VALIDATION', recoveryMessages.notApproved, [{ path: 'templateId', msg: recoveryMessages.notApproved }]);
    }
    if (input.enabled && !(await defaultCatalog(companyId))) throw new AppError('CONFLICT', recoveryMessages.noCatalog);
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<SettingsRow>(tx, sql`select * from recovery_settings where company_id = ${companyId} for update`);
      const values = JSON.stringify(input.templateValues ?? []);
      const [after] = await rowsOf<SettingsRow>(
        tx,
        sql`insert into recovery_settings (company_id, enabled, after_hours, text, template_id, template_values)
            values (${companyId}, ${input.enabled}, ${input.afterHours}, ${input.text}, ${input.templateId}, ${values}::jsonb)
            on conflict (company_id) do update set enabled = excluded.enabled, after_hours = excluded.after_hours, text = excluded.text,
              template_id = excluded.template_id, template_values = excluded.template_values, updated_at = now()
            returning *`,
      );
      const kept = (r: SettingsRow | undefined) =>
        r ? { enabled: r.enabled, after_hours: Number(r.after_hours), text: r.text, template_id: r.template_id, template_values: r.template_values } : null;
      const changes = changesOf(kept(before), kept(after));
      if (before && !Object.keys(changes).length) return;
      await audit(tx, { companyId, action: before ? 'update' : 'create', entity: 'recovery_settings', entityId: companyId, changes });
    });
    return get(companyId);
  }

  /**
   * The conversations due a decision now (of one company, or of every company that has it on), in
   * one statement: the latest analysis says the person wanted to buy; the customer's last message
   * is older than the company's hours and younger than RECOVERY_MAX_AGE_DAYS; an agent (or anyone
   * of the company) answered after it — nothing is pending from the company; no order of the chat
   * or its lead since the day before that message; the person did not opt out; no decision for this
   * conversation yet. A negative analysis is a candidate too: it goes to an agent instead.
   */
  async function candidates(companyId?: string): Promise<Candidate[]> {
    const one = companyId ? sql`and s.company_id = ${companyId}` : sql``;
    return rowsOf<Candidate>(
      db,
      sql`select s.company_id, c.id as chat_id, c.lead_id, c.platform, coalesce(nullif(p.name, ''), nullif(l.name, ''), c.contact_name, '') as name,
                 a.sentiment, last_in.id as episode_id, last_in.sent_at as last_in_at, s.template_id, s.template_values, s.text,
                 (select k.id from catalogs k where k.company_id = s.company_id and k.is_default limit 1) as catalog_id, co.country
            from recovery_settings s
            join companies co on co.id = s.company_id
            join chat_analyses a on a.company_id = s.company_id
            join chats c on c.company_id = a.company_id and c.id = a.chat_id
            left join leads l on l.company_id = c.company_id and l.id = c.lead_id
            left join clean_leads p on p.company_id = c.company_id and p.id = l.clean_lead_id
            cross join lateral (select m.id, m.sent_at from chat_messages m
                                 where m.company_id = c.company_id and m.chat_id = c.id and m.direction = 'in' and m.kind <> 'system'
                                 order by m.sent_at desc limit 1) last_in
           where s.enabled ${one}
             and a.motive in (${sql.join(
               RECOVERY_INTENT_MOTIVES.map((m) => sql`${m}`),
               sql`, `,
             )})
             and c.status <> 'snoozed'
             and last_in.sent_at <= now() - make_interval(hours => s.after_hours)
             and last_in.sent_at >= now() - make_interval(days => ${RECOVERY_MAX_AGE_DAYS})
             and exists (select 1 from chat_messages o where o.company_id = c.company_id and o.chat_id = c.id and o.direction = 'out' and o.sent_at > last_in.sent_at)
             and not exists (select 1 from orders o where o.company_id = c.company_id and o.status <> 'cancelled'
                               and (o.chat_id = c.id or (c.lead_id is not null and o.lead_id = c.lead_id))
                               and o.created_at >= last_in.sent_at - interval '1 day')
             and coalesce(p.opt_out, false) is false
             and not exists (select 1 from sales_followups f where f.company_id = c.company_id and f.chat_id = c.id and f.episode_message_id = last_in.id)
           order by last_in.sent_at
           limit 500`,
    );
  }

  /** The person's words of the conversation (their messages of the day before their last one). */
  async function wordsOf(c: Candidate): Promise<string> {
    const rows = await rowsOf<{ text: string | null }>(
      db,
      sql`select text from chat_messages where company_id = ${c.company_id} and chat_id = ${c.chat_id} and direction = 'in' and kind <> 'system'
            and text is not null and sent_at >= ${isoOf(c.last_in_at)}::timestamptz - interval '1 day'
          order by sent_at desc limit 20`,
    );
    return rows.map((r) => r.text).join('\n');
  }

  /** Records the decision once (a second sweep, or another worker, finds it): whether this one is the first. */
  async function record(
    c: Candidate,
    f: { status: 'sent' | 'failed' | 'skipped'; kind?: 'text' | 'template'; reason?: string; products?: MatchedProduct[]; cartUrl?: string; messageId?: string },
  ): Promise<boolean> {
    // a follow-up to send is written only while it still holds: the person has not written again
    // nor ordered since the sweep read them (then nothing is recorded: their new message is another conversation)
    const still =
      f.status === 'sent'
        ? // the episode's time read in the statement, never through JavaScript (a Date drops PostgreSQL's microseconds)
          sql`where not exists (select 1 from chat_messages m, chat_messages e
                                 where e.company_id = ${c.company_id} and e.id = ${c.episode_id}::uuid
                                   and m.company_id = e.company_id and m.chat_id = e.chat_id and m.direction = 'in' and m.kind <> 'system'
                                   and m.id <> e.id and m.sent_at >= e.sent_at)
              and not exists (select 1 from orders o, chat_messages e
                               where e.company_id = ${c.company_id} and e.id = ${c.episode_id}::uuid
                                 and o.company_id = e.company_id and o.status <> 'cancelled'
                                 and (o.chat_id = ${c.chat_id} or (${c.lead_id}::uuid is not null and o.lead_id = ${c.lead_id}::uuid))
                                 and o.created_at >= e.sent_at - interval '1 day')`
        : sql``;
    const rows = await rowsOf<{ id: string }>(
      db,
      sql`insert into sales_followups (company_id, chat_id, lead_id, episode_message_id, status, kind, reason, products, cart_url, message_id)
          select ${c.company_id}::uuid, ${c.chat_id}::uuid, ${c.lead_id}::uuid, ${c.episode_id}::uuid, ${f.status}, ${f.kind ?? null}, ${f.reason ?? null},
                 ${JSON.stringify((f.products ?? []).map((p) => ({ sku: p.sku, name: p.name, quantity: p.quantity, productId: p.productId })))}::jsonb,
                 ${f.cartUrl ?? null}, ${f.messageId ?? null}::uuid
          ${still}
          on conflict (company_id, chat_id, episode_message_id) do nothing returning id`,
    );
    return rows.length > 0;
  }

  /** One conversation: skipped (and why), handed to an agent, or followed up once. */
  async function decide(c: Candidate): Promise<'sent' | 'skipped' | 'failed'> {
    if (c.sentiment === 'negative') {
      if (!(await record(c, { status: 'skipped', reason: recoveryMessages.skipped.negative }))) return 'skipped';
      // to an agent: the one who holds the lead, else the automatic assignment's turn (when the company has it on); told by the bell
      const dealt = await db.transaction((tx) => actingAs({ type: 'system' }, () => assignChat(tx, c.company_id, c.chat_id)));
      const [lead] = c.lead_id ? await rowsOf<{ agente_id: string | null }>(db, sql`select agente_id from leads where company_id = ${c.company_id} and id = ${c.lead_id}`) : [];
      const agent = dealt ?? lead?.agente_id;
      if (agent) {
        await deps.notifyAgent(
          c.company_id,
          agent,
          { kind: 'recovery.negative', title: `${c.name || 'Un cliente'} quería comprar y está molesto`, body: 'La conversación fue negativa: atiéndela tú, no recibió un seguimiento automático.', link: `/chat?chatId=${c.chat_id}` },
          stableId(`recovery-notice:${c.chat_id}`, c.episode_id),
        );
      }
      return 'skipped';
    }
    const matched = (await deps.match(db, c.company_id, await wordsOf(c))).filter((p) => p.available);
    if (!matched.length) {
      await record(c, { status: 'skipped', reason: recoveryMessages.skipped.noProducts });
      return 'skipped';
    }
    // the cart link opens the default catalogue: only its products can be ordered there
    const inCatalog = c.catalog_id
      ? new Set(
          (await rowsOf<{ id: string }>(db, sql`select jsonb_array_elements_text(coalesce(product_ids, '[]'::jsonb)) as id from catalogs where id = ${c.catalog_id}`)).map((r) => r.id),
        )
      : new Set<string>();
    const products = matched.filter((p) => inCatalog.has(p.productId)).slice(0, 30);
    if (!products.length || !c.catalog_id) {
      await record(c, { status: 'skipped', reason: recoveryMessages.skipped.notInCatalog, products: matched });
      return 'skipped';
    }
    const cartUrl = `${deps.publicUrl}/catalogo-digital/${c.catalog_id}?carrito=${products.map((p) => `${encodeURIComponent(p.sku)}:${p.quantity}`).join(',')}`;
    const values = { nombre: firstName(c.name), enlace: cartUrl, productos: listOf(products.map((p) => p.name)) };
    const windowOpen = Date.now() - new Date(c.last_in_at).getTime() < WINDOW_MS;
    const kind = windowOpen ? 'text' : c.platform === 'whatsapp' && c.template_id ? 'template' : undefined;
    if (!kind) {
      await record(c, { status: 'skipped', reason: recoveryMessages.skipped.windowClosed, products, cartUrl });
      return 'skipped';
    }
    // the message's id is the decision's: a sweep run again after a crash sends it once
    const messageId = stableId(`recovery:${c.chat_id}`, c.episode_id);
    if (!(await record(c, { status: 'sent', kind, products, cartUrl, messageId }))) return 'skipped';
    try {
      await actingAs({ type: 'system' }, () =>
        kind === 'text'
          ? deps.sendText(c.company_id, c.chat_id, fill(c.text, values), messageId)
          : deps.sendTemplate(c.company_id, c.chat_id, { templateId: c.template_id as string, bodyValues: c.template_values.map((v) => fill(v, values)) }, messageId),
      );
      return 'sent';
    } catch (error) {
      const msg = (error as { message?: string }).message;
      await db.execute(
        sql`update sales_followups set status = 'failed', reason = ${error instanceof AppError && typeof msg === 'string' ? msg.slice(0, 300) : 'No se pudo enviar el seguimiento'}
            where company_id = ${c.company_id} and chat_id = ${c.chat_id} and episode_message_id = ${c.episode_id}`,
      );
      return 'failed';
    }
  }

  /** The sweep: every due conversation decided, one at a time (sends are paced by the channel's client). */
  async function sweep(companyId?: string): Promise<{ sent: number; skipped: number; failed: number }> {
    const out = { sent: 0, skipped: 0, failed: 0 };
    for (const c of await candidates(companyId)) out[await decide(c)]++;
    return out;
  }

  /** The latest follow-ups of the company with the order each brought, if any (the settings screen's list). */
  async function list(companyId: string, limit = 50): Promise<RecoveryFollowup[]> {
    const rows = await rowsOf<{
      id: string;
      chat_id: string;
      contact_name: string | null;
      status: RecoveryFollowup['status'];
      kind: RecoveryFollowup['kind'];
      reason: string | null;
      products: RecoveryFollowup['products'];
      cart_url: string | null;
      created_at: string | Date;
      code: string | null;
      total: number | null;
      currency: string | null;
    }>(
      db,
      sql`select f.id, f.chat_id, c.contact_name, f.status, f.kind, f.reason, f.products, f.cart_url, f.created_at, o.code, o.total, o.currency
            from sales_followups f
            join chats c on c.company_id = f.company_id and c.id = f.chat_id
            left join lateral (select o.code, o.total, o.currency from orders o
                                where o.company_id = f.company_id and o.status <> 'cancelled' and f.status = 'sent'
                                  and (o.chat_id = f.chat_id or (f.lead_id is not null and o.lead_id = f.lead_id))
                                  and o.created_at between f.created_at and f.created_at + make_interval(hours => ${RECOVERY_WINDOW_HOURS})
                                order by o.created_at limit 1) o on true
           where f.company_id = ${companyId}
           order by f.created_at desc limit ${limit}`,
    );
    return rows.map((r) => ({
      _id: r.id,
      chatId: r.chat_id,
      contactName: r.contact_name ?? '',
      status: r.status,
      kind: r.kind,
      reason: r.reason,
      products: (r.products ?? []).map((p) => ({ sku: p.sku, name: p.name, quantity: p.quantity })),
      cartUrl: r.cart_url,
      order: r.code ? { code: r.code, total: Number(r.total), currency: r.currency ?? '' } : null,
      createdAt: isoOf(r.created_at) as string,
    }));
  }

  return { get, put, sweep, candidates, list };
}
export type Recovery = ReturnType<typeof createRecovery>;
