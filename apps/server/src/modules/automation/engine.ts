import {
  AUTOMATION_MAX_DEPTH,
  AUTOMATION_MESSAGES_PER_CHAT_HOUR,
  type AutomationAction,
  type AutomationCondition,
  type AutomationTrigger,
  type BusinessHours,
  automationActionMessages,
  automationMessages,
  automationTriggers,
  type ConsultationMotive,
  type CountryCode,
  consultationMotiveLabels,
  countryOfPhone,
  type DomainEvent,
  imaginaVariables,
  isOpen,
  orderStatusLabels,
  renderImagina,
  WHATSAPP_WINDOW_HOURS,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { actingAs } from '../../db/actor.js';
import { type Db, rowsOf } from '../../db/database.js';
import { outboundFetch, refusalOf } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import { stableId } from '../../lib/stable-id.js';
import { settledStatusSql } from '../../resources/assignment-rules.js';
import { closedTeamsOf, uuidArray } from '../assignment/hours.js';

export { stableId };
import type { JobQueue } from '../../jobs/queue.js';
import type { Realtime } from '../../lib/realtime.js';
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
  /** What a template's values may name: the contact's name and phone, the company's name, the order's code. */
  names: { contact: string | null; phone: string | null; company: string | null; orderCode: string | null };
  /** The text folded (fold), once per event, whatever the number of rules reading it. */
  textFolded?: string;
  orderStatus: string | null;
  minutesSinceCustomer: number | null;
  /** Whether the company is inside its business hours now (decision 0078; no hours saved: always). */
  openNow: boolean;
  /** The assigned agent's sales team (null: no agent, or an agent of no team). */
  teamId: string | null;
  /** The chat's latest AI analysis: its sentiment and motive (null: not analysed). */
  sentiment: string | null;
  motive: string | null;
  /** The motive's code and its Spanish label, folded once per event ('' when none). */
  motiveFolded: string;
  motiveLabelFolded: string;
  /** The person's country by the lead's phone (contract countryOfPhone; null: no phone, another country). */
  country: CountryCode | null;
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
    case 'team':
      return ctx.teamId;
    case 'sentiment':
      return ctx.sentiment;
    case 'motive':
      return ctx.motive;
    case 'country':
      return ctx.country;
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
    case 'team':
      if (c.op === 'none') return ctx.teamId === null;
      return c.op === 'is' ? ctx.teamId === c.value : ctx.teamId !== c.value;
    case 'motive': {
      // not analysed: no motive is, nor contains, anything
      if (ctx.motive === null) return false;
      const v = foldedOf(String(c.value));
      if (c.op === 'is') return ctx.motiveFolded === v || ctx.motiveLabelFolded === v;
      return v !== '' && (ctx.motiveFolded.includes(v) || ctx.motiveLabelFolded.includes(v));
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
  order_code: string | null;
  contact_name: string | null;
  telefono: string | null;
  company_name: string | null;
  hours: BusinessHours | null;
  team_id: string | null;
  sentiment: string | null;
  motive: string | null;
}

/** One chat a rule looks at: its company and how the event names it. */
export interface ContextRef extends ChatRef {
  companyId: string;
}

/**
 * What rules see of a round's events (or a batch of timers): ONE statement for all of them,
 * whatever the number of events and of rules judged against each. Answers in the refs' order.
 */
export async function contextsOf(db: Pick<Db, 'execute'>, refs: ContextRef[]): Promise<RuleContext[]> {
  if (!refs.length) return [];
  const list = JSON.stringify(refs.map((r, k) => ({ k, company: r.companyId, chat: r.chatId ?? null, ord: r.orderId ?? null, lead: r.leadId ?? null, msg: r.messageId ?? null })));
  const rows = await rowsOf<ContextRow & { k: number }>(
    db,
    sql`select r.k, ch.id as chat_id, coalesce(ch.lead_id, r.lead, o.lead_id) as lead_id, ch.platform,
               l.status as lead_status, l.agente_id, l.mostrador_labels as labels, l.telefono_id,
               w.last_inbound_at,
               exists (select 1 from lead_referrals x where x.company_id = r.company and x.lead_id = l.id) as referral,
               (select count(*)::int from (select 1 from chat_messages m where m.company_id = r.company and m.chat_id = ch.id and m.direction = 'in' limit 2) y) as inbound,
               (select m.text from chat_messages m where m.company_id = r.company and m.id = r.msg) as text,
               o.status as order_status, o.code as order_code, coalesce(l.name, ch.contact_name) as contact_name, l.telefono,
               (select co.name from companies co where co.id = r.company) as company_name,
               (select jsonb_build_object('zone', b.zone, 'schedule', b.schedule, 'holidays', b.holidays) from business_hours b
                 where b.company_id = r.company and (b.team_id is null or b.team_id::text = ag.team_id) order by b.team_id is null limit 1) as hours,
               ag.team_id, an.sentiment, an.motive
          from jsonb_to_recordset(${list}::jsonb) as r(k int, company uuid, chat uuid, ord uuid, lead uuid, msg uuid)
          left join lateral (select id, status, code, chat_id, lead_id from orders where company_id = r.company and id = r.ord) o on true
          left join lateral (
            select c.id, c.platform, c.lead_id, c.contact_name from chats c
             where c.company_id = r.company
               and c.id = coalesce(r.chat, o.chat_id,
                        (select c2.id from chats c2 where c2.company_id = r.company and c2.lead_id = coalesce(r.lead, o.lead_id)
                          order by c2.last_message_at desc nulls last limit 1))
          ) ch on true
          left join leads l on l.company_id = r.company and l.id = coalesce(ch.lead_id, r.lead, o.lead_id)
          left join chat_windows w on w.chat_id = ch.id
          left join lateral (select a.equipo_de_ventas_id::text as team_id from agentes a where a.company_id = r.company and a.id = l.agente_id) ag on true
          left join lateral (
            select x.sentiment, x.motive from chat_analyses x where x.company_id = r.company and x.chat_id = ch.id order by x.analyzed_at desc limit 1
          ) an on true`,
  );
  const byK = new Map(rows.map((r) => [Number(r.k), r]));
  return refs.map((_, k) => contextOfRow(byK.get(k)));
}

/** What a rule sees of one event or chat (the preview, a single timer). */
export async function contextOf(db: Pick<Db, 'execute'>, companyId: string, ref: ChatRef): Promise<RuleContext> {
  const [ctx] = await contextsOf(db, [{ companyId, ...ref }]);
  return ctx;
}

function contextOfRow(row: ContextRow | undefined): RuleContext {
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
    names: { contact: row?.contact_name ?? null, phone: row?.telefono ?? null, company: row?.company_name ?? null, orderCode: row?.order_code ?? null },
    minutesSinceCustomer: inboundAt === null ? null : Math.floor((Date.now() - inboundAt) / 60_000),
    // a company that saved no hours is always open (decision 0078)
    openNow: row?.hours ? isOpen(row.hours, new Date()) : true,
    teamId: row?.team_id ?? null,
    sentiment: row?.sentiment ?? null,
    motive: row?.motive ?? null,
    motiveFolded: row?.motive ? fold(row.motive) : '',
    motiveLabelFolded: row?.motive ? fold(consultationMotiveLabels[row.motive as ConsultationMotive] ?? '') : '',
    country: countryOfPhone(row?.telefono) ?? null,
  };
}

/** A template value with the chat's data in place of its placeholders ({nombre}, {pedido}…). */
export function filled(value: string, ctx: RuleContext): string {
  const map: Record<string, string | null> = {
    '{nombre}': ctx.names.contact,
    '{telefono}': ctx.names.phone,
    '{empresa}': ctx.names.company,
    '{pedido}': ctx.names.orderCode,
    '{estado}': ctx.orderStatus ? (orderStatusLabels[ctx.orderStatus as keyof typeof orderStatusLabels] ?? ctx.orderStatus) : null,
  };
  return value.replace(/\{(nombre|telefono|empresa|pedido|estado)\}/g, (m) => map[m] ?? '');
}


/** What an action would do, in Spanish (the editor's preview, POST /automation-rules/{id}/test). */
export function describe(
  a: AutomationAction,
  names: { labels: Map<string, string>; agents: Map<string, string>; templates?: Map<string, string>; teams?: Map<string, string>; imagina?: Map<string, string> },
): string {
  switch (a.type) {
    case 'add_label':
      return `Agregaría la etiqueta «${names.labels.get(a.labelId) ?? a.labelId}»`;
    case 'remove_label':
      return `Quitaría la etiqueta «${names.labels.get(a.labelId) ?? a.labelId}»`;
    case 'assign_agent':
      return `Asignaría el chat a ${names.agents.get(a.agentId) ?? a.agentId}`;
    case 'unassign':
      return 'Dejaría el chat sin agente';
    case 'assign_team':
      return `Asignaría el chat al próximo agente disponible del equipo «${names.teams?.get(a.teamId) ?? a.teamId}», por turnos`;
    case 'assign_round_robin':
      return 'Asignaría el chat al próximo agente disponible de la compañía, por turnos';
    case 'set_lead_status':
      return `Pondría el lead en «${a.status}»`;
    case 'send_text':
      return `Enviaría: «${a.text.slice(0, 200)}»`;
    case 'send_template':
      return `Enviaría la plantilla «${names.templates?.get(a.templateId) ?? a.templateId}»`;
    case 'send_imagina':
      return `Enviaría la plantilla Imagina «${names.imagina?.get(a.templateId) ?? a.templateId}»`;
    case 'reply_products':
      return 'Respondería con los productos del catálogo que nombra el mensaje (el borrador del asistente)';
    case 'note':
      return `Dejaría la nota: «${a.text.slice(0, 200)}»`;
    case 'notify_agent':
      return `Avisaría al agente: «${a.text.slice(0, 200)}»`;
    case 'resolve':
      return 'Resolvería el chat';
    case 'snooze':
      return `Pospondría el chat ${a.minutes} minutos`;
    case 'webhook':
      return `Llamaría a ${a.url}`;
    case 'wait':
      return `Esperaría ${a.minutes} minutos y seguiría con lo que sigue`;
  }
}

/** What the actions need of the product. */
export interface ActionDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  realtime: Pick<Realtime, 'publish'>;
  /** Sends a text in a chat through its channel (the chat service's send; a stable id sends once). */
  sendText: (companyId: string, chatId: string, text: string, messageId: string) => Promise<void>;
  /** The reply assistant's embedded draft of a customer's words (modules/assistant), undefined when no product in stock is named. */
  replyFor: (companyId: string, text: string, contactName: string | null) => Promise<string | undefined>;
  /** Sends an approved WhatsApp template in a chat (any time: that is what templates are for). */
  sendTemplate: (companyId: string, chatId: string, input: { templateId: string; bodyValues: string[]; headerValue?: string }, messageId: string) => Promise<void>;
  webhookTimeoutMs: number;
  /** Where an action's unexpected failure is told (the run keeps a Spanish line, the log the error). */
  log?: { warn: (obj: object, msg: string) => void };
  /** A notice under an agent's bell (modules/notifications), once per id. False: the agent has no user. */
  notifyAgent: (companyId: string, agentId: string, notice: { kind: string; title: string; body: string; link: string | null }, id: string) => Promise<boolean>;
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
  run: {
    id: string;
    event: Pick<RunFor, 'id' | 'type' | 'occurredAt'>;
    sentThisHour: number;
    /** The company's messages per chat and hour (its setting). */
    cap: number;
    /** A run that waited goes on from this action. */
    from?: number;
  },
): Promise<{ acted: Acted[]; messages: number; waiting?: boolean }> {
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
  // each write names the rule in its own statement (no transaction around it): the events it
  // emits carry the rule, like the webhook processor's (decision 0068)
  const actor = sql`with actor as (select set_config('mostrador.actor', ${JSON.stringify({ type: 'rule', id: rule.id })}, true) as v)`;
  const named = sql`(select v from actor) is not null`;
  // a run that waited goes on from the action after its «Esperar» (`from`): the indices, and so
  // the messages' stable ids, stay those of the whole rule
  for (let i = run.from ?? 0; i < rule.actions.length; i++) {
    const a = rule.actions[i];
    try {
      const detail = await one(a, i);
      acted.push({ type: a.type, ok: true, detail });
      // the rest waits for its timer (timers.ts fires it, and the run goes on from i + 1)
      if (a.type === 'wait') return { acted, messages, waiting: true };
    } catch (error) {
      if (!(error instanceof ActionRefused)) deps.log?.warn({ err: error, ruleId: rule.id, action: a.type }, 'una acción de una regla falló');
      const detail = error instanceof ActionRefused ? error.message : 'Error interno al ejecutar la acción';
      acted.push({ type: a.type, ok: false, detail });
    }
  }
  return { acted, messages };

  async function one(a: AutomationAction, i: number): Promise<string | undefined> {
    switch (a.type) {
      case 'add_label':
      case 'remove_label': {
        const id = needLead();
        const labels = JSON.stringify([a.labelId]);
        await db.execute(
          a.type === 'add_label'
            ? sql`${actor} update leads set mostrador_labels = coalesce(mostrador_labels, '[]'::jsonb) || ${labels}::jsonb, updated_at = now()
                   where company_id = ${companyId} and id = ${id} and not coalesce(mostrador_labels, '[]'::jsonb) @> ${labels}::jsonb and ${named}`
            : sql`${actor} update leads set mostrador_labels = mostrador_labels - ${a.labelId}::text, updated_at = now()
                   where company_id = ${companyId} and id = ${id} and mostrador_labels @> ${labels}::jsonb and ${named}`,
        );
        return undefined;
      }
      case 'assign_agent':
      case 'unassign': {
        const id = needLead();
        const agent = a.type === 'assign_agent' ? a.agentId : null;
        await db.execute(
          sql`${actor} update leads set agente_id = ${agent}::uuid, updated_at = now()
               where company_id = ${companyId} and id = ${id} and agente_id is distinct from ${agent}::uuid and ${named}`,
        );
        return undefined;
      }
      case 'set_lead_status': {
        const id = needLead();
        await db.execute(
          sql`${actor} update leads set status = ${a.status}, updated_at = now() where company_id = ${companyId} and id = ${id} and status is distinct from ${a.status} and ${named}`,
        );
        return undefined;
      }
      case 'resolve':
      case 'snooze': {
        const id = needChat();
        const until = a.type === 'snooze' ? new Date(Date.now() + a.minutes * 60_000) : null;
        await db.execute(
          sql`${actor} update chats set status = ${a.type === 'snooze' ? 'snoozed' : 'closed'}, snoozed_until = ${until?.toISOString() ?? null}, updated_at = now()
               where company_id = ${companyId} and id = ${id} and ${named}`,
        );
        if (until) {
          const job: ChatWakeJob = { companyId, chatId: id };
          await deps.jobs.send(CHAT_WAKE_QUEUE, job, { startAfter: Math.ceil((until.getTime() - Date.now()) / 1000) + 1, singletonKey: `${run.id}:${i}` });
        }
        // the open screens hear of it from its event (chat.resolved / chat.snoozed, the realtime listener)
        return undefined;
      }
      case 'note': {
        const id = needChat();
        // the open screens hear of it from its event (message.sent → the realtime listener)
        await db.execute(
          sql`${actor} insert into chat_messages (id, company_id, chat_id, direction, kind, text, status, sent_at)
               select ${stableId(run.id, String(i))}::uuid, ${companyId}::uuid, ${id}::uuid, 'out', 'note', ${a.text}, 'received', now() from actor
               on conflict (id) do nothing`,
        );
        return undefined;
      }
      case 'send_text': {
        const id = needChat();
        if (run.sentThisHour + messages >= run.cap) throw new ActionRefused(automationMessages.tooManyMessages(run.cap));
        if (!ctx.windowOpen) throw new ActionRefused(automationMessages.windowClosed);
        try {
          // the chat service's own transaction names the rule (db/actor.ts actingTransactions)
          await actingAs({ type: 'rule', id: rule.id }, () => deps.sendText(companyId, id, a.text, stableId(run.id, String(i))));
        } catch (error) {
          const msg = (error as { message?: string }).message;
          throw new ActionRefused(typeof msg === 'string' && msg.startsWith('No se pudo') ? msg : 'No se pudo enviar el mensaje');
        }
        messages++;
        return undefined;
      }
      case 'assign_team':
      case 'assign_round_robin': {
        const id = needLead();
        const team = a.type === 'assign_team' ? a.teamId : null;
        // the automatic assignment's turn (modules/assignment/auto.ts, decision 0025): among the
        // available agents (active, «Disponible») of the team — or of the company — the next after
        // the one dealt last, in name order; the company's turn row locked, so two runs never take
        // the same turn. A lead an available agent of the pool already holds keeps it (a retried
        // run deals nothing twice). Pick, assign (as the rule) and move the turn: one statement —
        // and, once per company, one more first to write its turn's row (none yet: nothing to lock).
        // the agents of a team with hours of its own closed now are out of the turn (decision 0081)
        const closed = uuidArray(await closedTeamsOf(db, companyId));
        const deal = () =>
          rowsOf<{ has_turn: boolean; has_lead: boolean; team: string | null; dealt_to: string | null; held_by: string | null }>(
            db,
            sql`${actor},
                turn as (select last_agente_id from assignment_settings where company_id = ${companyId} for update),
                lead as (select l.agente_id from leads l where l.company_id = ${companyId} and l.id = ${id}),
                team as (select t.name from equipos_de_ventas t where t.company_id = ${companyId} and t.id = ${team}::uuid),
                pool as (select a.id, a.name from agentes a
                          where a.company_id = ${companyId} and a.active is not false and a.available is true
                            and (a.equipo_de_ventas_id is null or a.equipo_de_ventas_id <> all(${closed}::uuid[]))
                            and (${team}::uuid is null or (a.equipo_de_ventas_id = ${team}::uuid and exists (select 1 from team)))),
                held as (select p.id, p.name from pool p join lead on lead.agente_id = p.id),
                next as (select a.id, a.name from pool a
                           left join agentes last on last.company_id = ${companyId} and last.id = (select last_agente_id from turn)
                          where exists (select 1 from turn) and exists (select 1 from lead) and not exists (select 1 from held)
                          order by (last.id is not null and (a.name, a.id) > (last.name, last.id)) desc, a.name, a.id limit 1),
                dealt as (update leads set agente_id = next.id, status = ${settledStatusSql(sql`next.id`)}, updated_at = now() from next
                           where leads.company_id = ${companyId} and leads.id = ${id} and ${named} returning leads.id),
                turned as (update assignment_settings s set last_agente_id = next.id, updated_at = now() from next where s.company_id = ${companyId} returning 1)
            select exists (select 1 from turn) as has_turn, exists (select 1 from lead) as has_lead, (select name from team) as team,
                   (select name from next) as dealt_to, (select name from held) as held_by`,
          );
        let [row] = await deal();
        if (row && !row.has_turn) {
          // off, by default (decision 0025): the automatic assignment stays as the company left it
          await db.execute(sql`insert into assignment_settings (company_id) values (${companyId}) on conflict (company_id) do nothing`);
          [row] = await deal();
        }
        if (!row?.has_lead) throw new ActionRefused('El evento no tiene un lead en el que actuar');
        if (team && row.team == null) throw new ActionRefused(automationActionMessages.teamGone);
        if (row.held_by) return `Ya lo atiende ${row.held_by}`;
        if (!row.dealt_to) throw new ActionRefused(team ? automationActionMessages.noTeamAgent(row.team ?? '') : automationActionMessages.noAgentAvailable);
        return `Asignado a ${row.dealt_to}`;
      }
      case 'reply_products': {
        const id = needChat();
        if (run.sentThisHour + messages >= run.cap) throw new ActionRefused(automationMessages.tooManyMessages(run.cap));
        if (!ctx.windowOpen) throw new ActionRefused(automationMessages.windowClosed);
        if (!ctx.text?.trim()) throw new ActionRefused(automationActionMessages.noWords);
        const draft = await deps.replyFor(companyId, ctx.text, ctx.names.contact);
        if (!draft) throw new ActionRefused(automationActionMessages.noProducts);
        try {
          await actingAs({ type: 'rule', id: rule.id }, () => deps.sendText(companyId, id, draft, stableId(run.id, String(i))));
        } catch (error) {
          const msg = (error as { message?: string }).message;
          throw new ActionRefused(typeof msg === 'string' && msg.startsWith('No se pudo') ? msg : 'No se pudo enviar el mensaje');
        }
        messages++;
        return undefined;
      }
      case 'send_imagina': {
        const id = needChat();
        if (run.sentThisHour + messages >= run.cap) throw new ActionRefused(automationMessages.tooManyMessages(run.cap));
        if (!ctx.windowOpen) throw new ActionRefused(automationMessages.windowClosed);
        // the template and the chat's person, as a send fills an Imagina template (modules/sending/planning.ts):
        // the customer's name, phone and email, the company's name, and who sends — the chat's agent
        const [t] = await rowsOf<{ name: string | null; body: string | null; status: string | null; nombre: string | null; telefono: string | null; email: string | null; empresa: string | null; agente: string | null }>(
          db,
          sql`select t.name, t.body, t.status, coalesce(nullif(l.name, ''), ch.contact_name) as nombre,
                     coalesce(l.telefono, case when l.platform = 'whatsapp' then l.platform_user_id end) as telefono, l.email,
                     (select co.name from companies co where co.id = ${companyId}) as empresa, ag.name as agente
                from (select 1) one
                left join imagina_template_messages t on t.company_id = ${companyId} and t.id = ${a.templateId}
                left join chats ch on ch.company_id = ${companyId} and ch.id = ${id}
                left join leads l on l.company_id = ${companyId} and l.id = ch.lead_id
                left join agentes ag on ag.company_id = ${companyId} and ag.id = l.agente_id`,
        );
        if (!t?.body || !t.name) throw new ActionRefused(automationActionMessages.imaginaGone);
        if (t.status !== 'approved') throw new ActionRefused(automationActionMessages.imaginaDraft(t.name));
        const person = { nombre: t.nombre ?? undefined, telefono: t.telefono ?? undefined, email: t.email ?? undefined, empresa: t.empresa ?? undefined, agente: t.agente ?? undefined };
        const written = renderImagina(t.body, person);
        if (written.missing.length) {
          const v = written.missing[0];
          throw new ActionRefused(automationActionMessages.imaginaMissing(v, imaginaVariables[v as keyof typeof imaginaVariables]));
        }
        try {
          await actingAs({ type: 'rule', id: rule.id }, () => deps.sendText(companyId, id, written.text, stableId(run.id, String(i))));
        } catch (error) {
          const msg = (error as { message?: string }).message;
          throw new ActionRefused(typeof msg === 'string' && msg.startsWith('No se pudo') ? msg : 'No se pudo enviar el mensaje');
        }
        messages++;
        return undefined;
      }
      case 'notify_agent': {
        const id = needChat();
        if (!ctx.agentId) throw new ActionRefused(automationMessages.noAgent);
        const told = await deps.notifyAgent(
          companyId,
          ctx.agentId,
          { kind: 'automation.notice', title: `Regla «${rule.name}»`, body: filled(a.text, ctx), link: `/chat?chatId=${id}` },
          stableId(run.id, String(i)),
        );
        if (!told) throw new ActionRefused(automationMessages.noAgent);
        return undefined;
      }
      case 'send_template': {
        const id = needChat();
        if (run.sentThisHour + messages >= run.cap) throw new ActionRefused(automationMessages.tooManyMessages(run.cap));
        try {
          await actingAs({ type: 'rule', id: rule.id }, () =>
            deps.sendTemplate(
              companyId,
              id,
              { templateId: a.templateId, bodyValues: a.bodyValues.map((v) => filled(v, ctx)), headerValue: a.headerValue === undefined ? undefined : filled(a.headerValue, ctx) },
              stableId(run.id, String(i)),
            ),
          );
        } catch (error) {
          // the template service's refusals are Spanish and name no remote's words (not approved, another line, a value missing)
          const msg = (error as { message?: string }).message;
          throw new ActionRefused(error instanceof AppError && typeof msg === 'string' ? msg : 'No se pudo enviar la plantilla');
        }
        messages++;
        return undefined;
      }
      case 'wait': {
        // one timer per run and «Esperar» (a run done again after a crash finds it)
        const due = new Date(Date.now() + a.minutes * 60_000);
        await db.execute(
          sql`insert into automation_timers (company_id, rule_id, subject, chat_id, due_at, run_id, resume_at)
              values (${companyId}, ${rule.id}, ${`run:${run.id}:${i}`}, ${chat}, ${due.toISOString()}, ${run.id}, ${i + 1})
              on conflict (rule_id, subject) do nothing`,
        );
        return `Espera ${a.minutes} min y sigue`;
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
  const sends = judged.some((j) => j.rule.actions.some((a) => a.type === 'send_text' || a.type === 'send_template' || a.type === 'send_imagina' || a.type === 'reply_products'));
  // the hour's rule messages in the chat and the company's cap (its setting), in one statement
  const [sent] =
    sends && ctx.chatId && !cut
      ? await rowsOf<{ n: number; cap: number }>(
          deps.db,
          sql`select (select coalesce(sum(messages), 0)::int from automation_runs where company_id = ${e.companyId} and chat_id = ${ctx.chatId} and created_at > now() - interval '1 hour') as n,
                     coalesce((select messages_per_chat_hour from automation_settings where company_id = ${e.companyId}), ${AUTOMATION_MESSAGES_PER_CHAT_HOUR})::int as cap`,
        )
      : [{ n: 0, cap: AUTOMATION_MESSAGES_PER_CHAT_HOUR }];
  let sentThisHour = Number(sent?.n ?? 0);
  const cap = Number(sent?.cap ?? AUTOMATION_MESSAGES_PER_CHAT_HOUR);
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
    let outcome: { acted: Acted[]; messages: number; waiting?: boolean };
    try {
      outcome = await act(deps, j.rule, ctx, { id: claimed.id, event: e, sentThisHour, cap });
    } catch (error) {
      deps.log.warn({ err: error, ruleId: j.rule.id }, 'una regla de automatización falló');
      outcome = { acted: [], messages: 0 };
    }
    sentThisHour += outcome.messages;
    const failed = outcome.acted.filter((a) => !a.ok);
    await deps.db.execute(
      sql`with done as (
            update automation_runs set status = ${outcome.waiting ? 'waiting' : failed.length ? 'error' : 'ok'}, actions = ${JSON.stringify(outcome.acted)}::jsonb, messages = ${outcome.messages},
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
  const withRules = wanted
    .map((e) => ({ e, mine: rules.filter((r) => r.company_id === e.companyId && r.trigger_event === e.type && !(e.actor.type === 'rule' && e.actor.id === r.id)) }))
    .filter((x) => x.mine.length);
  // what the rules see of every event of the round, in one statement
  const contexts = await contextsOf(
    deps.db,
    withRules.map(({ e }) => ({ companyId: e.companyId, ...chatRefOf(e) })),
  );
  // a chat a rule acted on earlier in the round is read again for its later events: they see
  // what the rule did (a label put on, an agent assigned), as one after another would
  const touched = new Set<string>();
  for (const [k, { e, mine }] of withRules.entries()) {
    const read = contexts[k];
    const ctx = read.chatId && touched.has(read.chatId) ? await contextOf(deps.db, e.companyId, chatRefOf(e)) : read;
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
    const n = await runJudged(deps, { id: e.id, type: e.type, occurredAt: e.occurredAt, companyId: e.companyId }, ctx, judged, depth);
    if (n && ctx.chatId) touched.add(ctx.chatId);
    ran += n;
  }
  return ran;
}
