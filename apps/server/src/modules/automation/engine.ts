import { createHash } from 'node:crypto';
import {
  AUTOMATION_MAX_DEPTH,
  AUTOMATION_MESSAGES_PER_CHAT_HOUR,
  type AutomationAction,
  type AutomationCondition,
  type AutomationTrigger,
  type BusinessHours,
  automationMessages,
  automationTriggers,
  type DomainEvent,
  isOpen,
  WHATSAPP_WINDOW_HOURS,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { actingAs } from '../../db/actor.js';
import { type Db, rowsOf } from '../../db/database.js';
import { outboundFetch, refusalOf } from '../../integrations/outbound.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Realtime } from '../../lib/realtime.js';
import { publishChatEffect } from '../chats/events.js';
import { CHAT_WAKE_QUEUE, type ChatWakeJob } from '../chats/jobs.js';

/**
 * The automation rules' engine (decision 0077): what a rule sees of the chat an event concerns,
 * how its conditions are judged, and what its actions do. The spine's `automation` listener
 * (spine/listeners.ts) hands it each round's events; `POST /automation-rules/{id}/test` asks it
 * what would happen, without doing it.
 */

/** What a rule sees: the chat an event concerns, its lead and, for a message, what it says. */
export interface RuleContext {
  chatId: string | null;
  leadId: string | null;
  platform: string | null;
  leadStatus: string | null;
  agentId: string | null;
  labels: string[];
  telefonoId: string | null;
  windowOpen: boolean;
  referral: boolean;
  firstMessage: boolean;
  text: string | null;
  /** The text folded (fold), once per event, whatever the number of rules reading it. */
  textFolded?: string;
  orderStatus: string | null;
  minutesSinceCustomer: number | null;
  /** Whether the company is inside its business hours now (decision 0078; no hours saved: always). */
  openNow: boolean;
}

export interface StoredRule {
  id: string;
  company_id: string;
  name: string;
  /** The spine's event type, or 'timer'. */
  trigger_event: AutomationTrigger | 'timer';
  match: 'all' | 'any';
  conditions: AutomationCondition[];
  actions: AutomationAction[];
}

export interface Evaluated {
  field: string;
  op: string;
  value?: string | number | boolean;
  actual?: unknown;
  passed: boolean;
}
export interface Acted {
  type: string;
  ok: boolean;
  detail?: string;
}

/** Lower case without accents: «Precio», «precio» and «PRECÍO» read alike. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** A rule's words and expressions, folded and compiled once per process (200 rules × every event judge them). */
const folded = new Map<string, string>();
const compiled = new Map<string, RegExp | null>();
const remember = <T>(cache: Map<string, T>, key: string, make: () => T): T => {
  let value = cache.get(key);
  if (value === undefined && !cache.has(key)) {
    if (cache.size > 10_000) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value as T;
};
const foldedOf = (s: string) => remember(folded, s, () => fold(s));
const regexOf = (s: string) =>
  remember(compiled, s, () => {
    try {
      return new RegExp(s, 'iu');
    } catch {
      return null;
    }
  });

/** One condition against the context: what it found and whether it holds. */
/** What a condition looks at in the context (what its run shows as found). */
function actualOf(c: AutomationCondition, ctx: RuleContext): unknown {
  switch (c.field) {
    case 'channel':
      return ctx.platform;
    case 'lead_status':
      return ctx.leadStatus;
    case 'order_status':
      return ctx.orderStatus;
    case 'line':
      return ctx.telefonoId;
    case 'first_message':
      return ctx.firstMessage;
    case 'window_open':
      return ctx.windowOpen;
    case 'referral':
      return ctx.referral;
    case 'agent':
      return ctx.agentId;
    case 'label':
      return ctx.labels;
    case 'text':
      return ctx.text ?? '';
    case 'minutes_since_customer':
      return ctx.minutesSinceCustomer;
    case 'business_hours':
      return ctx.openNow;
  }
}

/** Whether one condition holds: no allocation, so 200 rules × an event stay well under a millisecond. */
export function holds(c: AutomationCondition, ctx: RuleContext): boolean {
  switch (c.field) {
    case 'agent':
      if (c.op === 'none') return ctx.agentId === null;
      if (c.op === 'any') return ctx.agentId !== null;
      return c.op === 'is' ? ctx.agentId === c.value : ctx.agentId !== c.value;
    case 'label': {
      const has = ctx.labels.includes(String(c.value));
      return c.op === 'has' ? has : !has;
    }
    case 'text': {
      const text = ctx.text ?? '';
      ctx.textFolded ??= fold(text);
      if (c.op === 'matches') {
        const re = regexOf(String(c.value));
        return !!re && (re.test(ctx.textFolded) || re.test(text));
      }
      const found = ctx.textFolded.includes(foldedOf(String(c.value)));
      return c.op === 'contains' ? found : !found;
    }
    case 'minutes_since_customer': {
      const m = ctx.minutesSinceCustomer;
      if (m === null) return false;
      return c.op === 'gt' ? m > Number(c.value) : m < Number(c.value);
    }
    default: {
      const actual = actualOf(c, ctx);
      return c.op === 'is' ? actual === c.value : actual !== c.value;
    }
  }
}

/** One condition against the context: what it found and whether it holds (a run's record). */
export function evaluate(c: AutomationCondition, ctx: RuleContext): Evaluated {
  return { field: c.field, op: c.op, value: c.value, actual: actualOf(c, ctx), passed: holds(c, ctx) };
}

/** A rule's conditions, all (or any) of them: none at all always holds. */
export function judge(rule: Pick<StoredRule, 'match' | 'conditions'>, ctx: RuleContext): { matched: boolean; evaluated: Evaluated[] } {
  if (!rule.conditions.length) return { matched: true, evaluated: [] };
  // first whether it holds (stopping at the first condition that settles it), then, for a rule
  // that ran or a preview, each condition as evaluated
  const matched = rule.match === 'any' ? rule.conditions.some((c) => holds(c, ctx)) : rule.conditions.every((c) => holds(c, ctx));
  return { matched, evaluated: matched ? rule.conditions.map((c) => evaluate(c, ctx)) : [] };
}

/** The chat an event concerns: its own, a lead's latest chat, an order's chat. */
export interface ChatRef {
  chatId?: string;
  leadId?: string;
  orderId?: string;
  messageId?: string;
}
export function chatRefOf(e: Pick<DomainEvent, 'type' | 'payload'>): ChatRef {
  const p = e.payload as Record<string, unknown>;
  const str = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  return { chatId: str('chatId'), leadId: str('leadId'), orderId: str('orderId'), messageId: e.type === 'message.received' ? str('messageId') : undefined };
}

interface ContextRow extends Record<string, unknown> {
  chat_id: string | null;
  lead_id: string | null;
  platform: string | null;
  lead_status: string | null;
  agente_id: string | null;
  labels: string[] | null;
  telefono_id: string | null;
  last_inbound_at: string | Date | null;
  referral: boolean;
  inbound: number;
  text: string | null;
  order_status: string | null;
  hours: BusinessHours | null;
}

/** What a rule sees of an event: one statement, whatever the number of rules judged against it. */
export async function contextOf(db: Pick<Db, 'execute'>, companyId: string, ref: ChatRef): Promise<RuleContext> {
  const [row] = await rowsOf<ContextRow>(
    db,
    sql`with o as (select id, status, chat_id, lead_id from orders where company_id = ${companyId} and id = ${ref.orderId ?? null}::uuid),
         ch as (
           select c.id, c.platform, c.lead_id from chats c
            where c.company_id = ${companyId}
              and c.id = coalesce(${ref.chatId ?? null}::uuid, (select chat_id from o),
                       (select c2.id from chats c2 where c2.company_id = ${companyId} and c2.lead_id = coalesce(${ref.leadId ?? null}::uuid, (select lead_id from o))
                         order by c2.last_message_at desc nulls last limit 1))
         )
       select ch.id as chat_id, coalesce(ch.lead_id, ${ref.leadId ?? null}::uuid, (select lead_id from o)) as lead_id, ch.platform,
              l.status as lead_status, l.agente_id, l.mostrador_labels as labels, l.telefono_id,
              w.last_inbound_at,
              exists (select 1 from lead_referrals r where r.company_id = ${companyId} and r.lead_id = l.id) as referral,
              (select count(*)::int from (select 1 from chat_messages m where m.company_id = ${companyId} and m.chat_id = ch.id and m.direction = 'in' limit 2) x) as inbound,
              (select m.text from chat_messages m where m.company_id = ${companyId} and m.id = ${ref.messageId ?? null}::uuid) as text,
              (select status from o) as order_status,
              (select jsonb_build_object('zone', b.zone, 'schedule', b.schedule, 'holidays', b.holidays) from business_hours b where b.company_id = ${companyId}) as hours
         from (select 1) one
         left join ch on true
         left join leads l on l.company_id = ${companyId} and l.id = coalesce(ch.lead_id, ${ref.leadId ?? null}::uuid, (select lead_id from o))
         left join chat_windows w on w.chat_id = ch.id`,
  );
  const inboundAt = row?.last_inbound_at ? new Date(row.last_inbound_at).getTime() : null;
  return {
    chatId: row?.chat_id ?? null,
    leadId: row?.lead_id ?? null,
    platform: row?.platform ?? null,
    leadStatus: row?.lead_status ?? null,
    agentId: row?.agente_id ?? null,
    labels: Array.isArray(row?.labels) ? row.labels : [],
    telefonoId: row?.telefono_id ?? null,
    windowOpen: inboundAt !== null && Date.now() - inboundAt < WHATSAPP_WINDOW_HOURS * 3_600_000,
    referral: Boolean(row?.referral),
    firstMessage: Number(row?.inbound ?? 0) === 1,
    text: row?.text ?? null,
    orderStatus: row?.order_status ?? null,
    minutesSinceCustomer: inboundAt === null ? null : Math.floor((Date.now() - inboundAt) / 60_000),
    // a company that saved no hours is always open (decision 0078)
    openNow: row?.hours ? isOpen(row.hours, new Date()) : true,
  };
}

/** A stable id from a run and an action's place in it: a message a retried run sends is the same message (sent once). */
export function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What an action would do, in Spanish (the editor's preview, POST /automation-rules/{id}/test). */
export function describe(a: AutomationAction, names: { labels: Map<string, string>; agents: Map<string, string> }): string {
  switch (a.type) {
    case 'add_label':
      return `Agregaría la etiqueta «${names.labels.get(a.labelId) ?? a.labelId}»`;
    case 'remove_label':
      return `Quitaría la etiqueta «${names.labels.get(a.labelId) ?? a.labelId}»`;
    case 'assign_agent':
      return `Asignaría el chat a ${names.agents.get(a.agentId) ?? a.agentId}`;
    case 'unassign':
      return 'Dejaría el chat sin agente';
    case 'set_lead_status':
      return `Pondría el lead en «${a.status}»`;
    case 'send_text':
      return `Enviaría: «${a.text.slice(0, 200)}»`;
    case 'note':
      return `Dejaría la nota: «${a.text.slice(0, 200)}»`;
    case 'resolve':
      return 'Resolvería el chat';
    case 'snooze':
      return `Pospondría el chat ${a.minutes} minutos`;
    case 'webhook':
      return `Llamaría a ${a.url}`;
  }
}

/** What the actions need of the product. */
export interface ActionDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  realtime: Pick<Realtime, 'publish'>;
  /** Sends a text in a chat through its channel (the chat service's send; a stable id sends once). */
  sendText: (companyId: string, chatId: string, text: string, messageId: string) => Promise<void>;
  webhookTimeoutMs: number;
}

/** Why an action could not be done, in Spanish (never a remote's words). */
class ActionRefused extends Error {}

/**
 * Runs a rule's actions in order, as the rule (the actor of the events they cause: a rule never
 * sets itself off again, and a chain is counted). Each action's result is kept; one failing does
 * not stop the next. Answers the results and how many messages went.
 */
export async function act(
  deps: ActionDeps,
  rule: StoredRule,
  ctx: RuleContext,
  run: { id: string; event: Pick<RunFor, 'id' | 'type' | 'occurredAt'>; sentThisHour: number },
): Promise<{ acted: Acted[]; messages: number }> {
  const { db } = deps;
  const companyId = rule.company_id;
  const acted: Acted[] = [];
  let messages = 0;
  const lead = ctx.leadId;
  const chat = ctx.chatId;
  const needLead = () => {
    if (!lead) throw new ActionRefused('El evento no tiene un lead en el que actuar');
    return lead;
  };
  const needChat = () => {
    if (!chat) throw new ActionRefused(automationMessages.noChat);
    return chat;
  };
  await actingAs({ type: 'rule', id: rule.id }, async () => {
    for (const [i, a] of rule.actions.entries()) {
      try {
        const detail = await one(a, i);
        acted.push({ type: a.type, ok: true, detail });
      } catch (error) {
        const detail = error instanceof ActionRefused ? error.message : 'Error interno al ejecutar la acción';
        acted.push({ type: a.type, ok: false, detail });
      }
    }
  });
  return { acted, messages };

  async function one(a: AutomationAction, i: number): Promise<string | undefined> {
    switch (a.type) {
      case 'add_label':
      case 'remove_label': {
        const id = needLead();
        const labels = JSON.stringify([a.labelId]);
        await db.transaction((tx) =>
          tx.execute(
            a.type === 'add_label'
              ? sql`update leads set mostrador_labels = coalesce(mostrador_labels, '[]'::jsonb) || ${labels}::jsonb, updated_at = now()
                     where company_id = ${companyId} and id = ${id} and not coalesce(mostrador_labels, '[]'::jsonb) @> ${labels}::jsonb`
              : sql`update leads set mostrador_labels = mostrador_labels - ${a.labelId}::text, updated_at = now()
                     where company_id = ${companyId} and id = ${id} and mostrador_labels @> ${labels}::jsonb`,
          ),
        );
        return undefined;
      }
      case 'assign_agent':
      case 'unassign': {
        const id = needLead();
        const agent = a.type === 'assign_agent' ? a.agentId : null;
        await db.transaction((tx) =>
          tx.execute(sql`update leads set agente_id = ${agent}::uuid, updated_at = now() where company_id = ${companyId} and id = ${id} and agente_id is distinct from ${agent}::uuid`),
        );
        return undefined;
      }
      case 'set_lead_status': {
        const id = needLead();
        await db.transaction((tx) => tx.execute(sql`update leads set status = ${a.status}, updated_at = now() where company_id = ${companyId} and id = ${id} and status is distinct from ${a.status}`));
        return undefined;
      }
      case 'resolve':
      case 'snooze': {
        const id = needChat();
        const until = a.type === 'snooze' ? new Date(Date.now() + a.minutes * 60_000) : null;
        await db.transaction((tx) =>
          tx.execute(sql`update chats set status = ${a.type === 'snooze' ? 'snoozed' : 'closed'}, snoozed_until = ${until?.toISOString() ?? null}, updated_at = now()
                          where company_id = ${companyId} and id = ${id}`),
        );
        if (until) {
          const job: ChatWakeJob = { companyId, chatId: id };
          await deps.jobs.send(CHAT_WAKE_QUEUE, job, { startAfter: Math.ceil((until.getTime() - Date.now()) / 1000) + 1, singletonKey: `${run.id}:${i}` });
        }
        await publishChatEffect(db, deps.realtime, companyId, { type: 'chat.updated', chatId: id });
        return undefined;
      }
      case 'note': {
        const id = needChat();
        await db.transaction((tx) =>
          tx.execute(sql`insert into chat_messages (id, company_id, chat_id, direction, kind, text, status, sent_at)
                          values (${stableId(run.id, String(i))}, ${companyId}, ${id}, 'out', 'note', ${a.text}, 'received', now())
                          on conflict (id) do nothing`),
        );
        await publishChatEffect(db, deps.realtime, companyId, { type: 'chat.updated', chatId: id });
        return undefined;
      }
      case 'send_text': {
        const id = needChat();
        if (run.sentThisHour + messages >= AUTOMATION_MESSAGES_PER_CHAT_HOUR) throw new ActionRefused(automationMessages.tooManyMessages);
        if (!ctx.windowOpen) throw new ActionRefused(automationMessages.windowClosed);
        try {
          await deps.sendText(companyId, id, a.text, stableId(run.id, String(i)));
        } catch (error) {
          const msg = (error as { message?: string }).message;
          throw new ActionRefused(typeof msg === 'string' && msg.startsWith('No se pudo') ? msg : 'No se pudo enviar el mensaje');
        }
        messages++;
        return undefined;
      }
      case 'webhook': {
        const body = JSON.stringify({
          rule: { id: rule.id, name: rule.name },
          event: { id: run.event.id, type: run.event.type, createdAt: run.event.occurredAt },
          companyId,
          chat: { id: ctx.chatId, leadId: ctx.leadId, channel: ctx.platform, leadStatus: ctx.leadStatus, agentId: ctx.agentId, labels: ctx.labels },
        });
        let status: number;
        try {
          const res = await outboundFetch()(a.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'mostrador-rule-id': rule.id, 'mostrador-run-id': run.id },
            body,
            signal: AbortSignal.timeout(deps.webhookTimeoutMs),
          });
          status = res.status;
          await res.body?.cancel();
        } catch (error) {
          const refusal = refusalOf(error);
          throw new ActionRefused(refusal ? refusal.msg : 'El webhook no respondió a tiempo o rechazó la conexión');
        }
        if (status < 200 || status > 299) throw new ActionRefused(`El webhook respondió ${status}`);
        return `Respondió ${status}`;
      }
    }
  }
}

/** What a run is for: a spine event, or a timer's firing (its id stable per timer and time). */
export interface RunFor {
  id: string;
  type: string;
  occurredAt: string;
  companyId: string;
}

/**
 * The runs of the rules whose conditions held for one event or timer: each once per rule and
 * event (unique), the chain cut past AUTOMATION_MAX_DEPTH, rule messages capped per chat and hour,
 * one failing rule keeping its error without stopping the next. Answers how many ran.
 */
export async function runJudged(deps: EngineDeps, e: RunFor, ctx: RuleContext, judged: Array<{ rule: StoredRule; evaluated: Evaluated[] }>, depth: number): Promise<number> {
  let ran = 0;
  const cut = depth > AUTOMATION_MAX_DEPTH;
  const sends = judged.some((j) => j.rule.actions.some((a) => a.type === 'send_text'));
  const [sent] =
    sends && ctx.chatId && !cut
      ? await rowsOf<{ n: number }>(
          deps.db,
          sql`select coalesce(sum(messages), 0)::int as n from automation_runs where company_id = ${e.companyId} and chat_id = ${ctx.chatId} and created_at > now() - interval '1 hour'`,
        )
      : [{ n: 0 }];
  let sentThisHour = Number(sent?.n ?? 0);
  for (const j of judged) {
    // the run, once per rule and event; a run left 'running' by a crash is taken again
    const [claimed] = await rowsOf<{ id: string }>(
      deps.db,
      sql`insert into automation_runs (company_id, rule_id, event_id, event_type, chat_id, status, depth, conditions, error)
          values (${e.companyId}, ${j.rule.id}, ${e.id}, ${e.type}, ${ctx.chatId}, ${cut ? 'skipped' : 'running'}, ${depth}, ${JSON.stringify(j.evaluated)}::jsonb, ${cut ? automationMessages.chainCut : null})
          on conflict (rule_id, event_id) do update set status = automation_runs.status where automation_runs.status = 'running'
          returning id::text`,
    );
    if (!claimed || cut) continue;
    let outcome: { acted: Acted[]; messages: number };
    try {
      outcome = await act(deps, j.rule, ctx, { id: claimed.id, event: e, sentThisHour });
    } catch (error) {
      deps.log.warn({ err: error, ruleId: j.rule.id }, 'una regla de automatización falló');
      outcome = { acted: [], messages: 0 };
    }
    sentThisHour += outcome.messages;
    const failed = outcome.acted.filter((a) => !a.ok);
    await deps.db.execute(
      sql`with done as (
            update automation_runs set status = ${failed.length ? 'error' : 'ok'}, actions = ${JSON.stringify(outcome.acted)}::jsonb, messages = ${outcome.messages},
                   error = ${failed.length ? (failed[0].detail ?? null) : null}
             where id = ${claimed.id} returning rule_id)
          update automation_rules set last_run_at = now() where id = (select rule_id from done)`,
    );
    ran++;
  }
  return ran;
}

export interface EngineDeps extends ActionDeps {
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * One round of the spine's events: the enabled rules of their companies and types in one
 * statement, each event's context in one more, every rule judged in memory. A rule whose
 * conditions hold gets a run (once per rule and event: an event handed again finds it, and only
 * a run a crash left unfinished is done again — its message keeps its id, so it goes once).
 */
export async function runRules(deps: EngineDeps, events: DomainEvent[]): Promise<number> {
  const wanted = events.filter((e) => (automationTriggers as readonly string[]).includes(e.type));
  if (!wanted.length) return 0;
  const companies = [...new Set(wanted.map((e) => e.companyId))];
  const types = [...new Set(wanted.map((e) => e.type))];
  const rules = await rowsOf<StoredRule & Record<string, unknown>>(
    deps.db,
    sql`select id::text, company_id::text, name, trigger_event, match, conditions, actions from automation_rules
         where enabled and company_id = any(${`{${companies.join(',')}}`}::uuid[]) and trigger_event = any(${`{${types.join(',')}}`}::text[])
         order by company_id, position, created_at`,
  );
  if (!rules.length) return 0;
  let ran = 0;
  for (const e of wanted) {
    const mine = rules.filter((r) => r.company_id === e.companyId && r.trigger_event === e.type && !(e.actor.type === 'rule' && e.actor.id === r.id));
    if (!mine.length) continue;
    const ctx = await contextOf(deps.db, e.companyId, chatRefOf(e));
    const judged = mine.map((rule) => ({ rule, ...judge(rule, ctx) })).filter((j) => j.matched);
    if (!judged.length) continue;
    // how many rules in a row led here: the run of the rule whose change this event is
    let depth = 1;
    if (e.actor.type === 'rule' && e.actor.id) {
      const [parent] = await rowsOf<{ depth: number }>(
        deps.db,
        sql`select depth from automation_runs where rule_id = ${e.actor.id}::uuid and (chat_id = ${ctx.chatId}::uuid or ${ctx.chatId}::uuid is null) order by created_at desc limit 1`,
      );
      depth = (parent?.depth ?? 1) + 1;
    }
    ran += await runJudged(deps, { id: e.id, type: e.type, occurredAt: e.occurredAt, companyId: e.companyId }, ctx, judged, depth);
  }
  return ran;
}
