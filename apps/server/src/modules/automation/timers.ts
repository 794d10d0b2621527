import { type AutomationTimerKind, automationTriggers, type DomainEvent, type DomainEventType, WHATSAPP_WINDOW_HOURS } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/database.js';
import { type BatchItem, type Resume, resumeRuns, runBatch } from './batch.js';
import { contextsOf, type EngineDeps, judge, type StoredRule, stableId } from './engine.js';

/**
 * Timer rules (decision 0077): a rule whose trigger is a timer waits for something not to happen
 * («el cliente no responde», «nadie responde», «sin actividad», «se cierra la ventana», «el pedido
 * sigue en su estado»). The spine's events set, move and cancel its timers (one per rule and chat
 * or order, `automation_timers`); the `automation.timers` job fires the due ones within a minute.
 * Times are instants (timestamptz): a change of the company's zone or the clocks' summer time
 * moves nothing.
 */

/** The events that set or cancel timers. */
export const TIMER_EVENTS = ['message.received', 'message.sent', 'order.created', 'order.status_changed'] as const;
/** What the spine's `automation` listener takes: the rules' events and the timers'. */
export const automationListens: DomainEventType[] = [...new Set<DomainEventType>([...automationTriggers, ...TIMER_EVENTS])];
/** A claimed timer whose process died is taken again after this (the default of AUTOMATION_TIMER_LEASE_SECONDS). */
export const TIMER_LEASE_SECONDS = 45;
/** Timers claimed per statement; the runs that send or call out go this many side by side. */
export const TIMER_BATCH = 500;
export const TIMER_LANES = 8;

export interface TimerSpec {
  kind: AutomationTimerKind;
  minutes: number;
  status?: string;
}
interface TimerRule extends Record<string, unknown> {
  id: string;
  company_id: string;
  timer: TimerSpec;
}

type Op = { op: 'set' | 'keep' | 'cancel'; rule: string; company: string; subject: string; chat: string | null; order: string | null; due: string | null };

/**
 * What a round of events does to the timers, folded per rule and subject in the events' order
 * (a customer's message then an agent's answer: the last word stands). `set` moves a timer to its
 * new time, `keep` starts one only if none waits (the first unanswered message counts), `cancel`
 * drops it. A rule's own message never sets its own timer again (no follow-up of a follow-up).
 */
export function planTimers(rules: TimerRule[], events: DomainEvent[]): Op[] {
  const plan = new Map<string, Op>();
  const put = (next: Op) => {
    const key = `${next.rule}|${next.subject}`;
    const was = plan.get(key);
    // a keep after a set or keep changes nothing; after a cancel the timer starts again
    if (next.op === 'keep' && was && was.op !== 'cancel') return;
    plan.set(key, was?.op === 'cancel' && next.op === 'keep' ? { ...next, op: 'set' } : next);
  };
  for (const e of events) {
    const p = e.payload as Record<string, unknown>;
    const at = Date.parse(e.occurredAt);
    for (const r of rules) {
      if (r.company_id !== e.companyId) continue;
      if (e.actor.type === 'rule' && e.actor.id === r.id) continue;
      const t = r.timer;
      const after = (ms: number) => new Date(at + ms).toISOString();
      const minutes = t.minutes * 60_000;
      const chat = typeof p.chatId === 'string' ? p.chatId : null;
      const onChat = (op: Op['op'], due: string | null) => chat && put({ op, rule: r.id, company: r.company_id, subject: `chat:${chat}`, chat, order: null, due });
      if (e.type === 'message.received') {
        if (t.kind === 'no_customer_reply') onChat('cancel', null);
        else if (t.kind === 'window_closing') onChat('set', after(WHATSAPP_WINDOW_HOURS * 3_600_000 - minutes));
        else if (t.kind === 'no_agent_reply') onChat('keep', after(minutes));
        else if (t.kind === 'no_activity') onChat('set', after(minutes));
      } else if (e.type === 'message.sent') {
        if (p.kind === 'note') continue;
        if (t.kind === 'no_customer_reply' || t.kind === 'no_activity') onChat('set', after(minutes));
        // a person answered (a campaign, a bot or a rule is not an answer)
        else if (t.kind === 'no_agent_reply' && p.sentBy) onChat('cancel', null);
      } else if ((e.type === 'order.created' || e.type === 'order.status_changed') && t.kind === 'order_status_age' && typeof p.orderId === 'string') {
        put({
          op: p.status === t.status ? 'set' : 'cancel',
          rule: r.id,
          company: r.company_id,
          subject: `order:${p.orderId}`,
          chat,
          order: p.orderId,
          due: p.status === t.status ? after(minutes) : null,
        });
      }
    }
  }
  return [...plan.values()];
}

type Tx = Pick<EngineDeps['db'], 'execute'>;

/** A round's timer changes: at most three statements, whatever the number of events and rules. */
export async function applyTimers(db: Tx, ops: Op[]): Promise<void> {
  const of = (kind: Op['op']) => JSON.stringify(ops.filter((o) => o.op === kind));
  if (ops.some((o) => o.op === 'cancel')) {
    await db.execute(sql`delete from automation_timers t using jsonb_to_recordset(${of('cancel')}::jsonb) as o(rule uuid, subject text)
        where t.rule_id = o.rule and t.subject = o.subject`);
  }
  for (const kind of ['set', 'keep'] as const) {
    if (!ops.some((o) => o.op === kind)) continue;
    await db.execute(sql`insert into automation_timers (company_id, rule_id, subject, chat_id, order_id, due_at)
        select o.company, o.rule, o.subject, o.chat, o."order", o.due
          from jsonb_to_recordset(${of(kind)}::jsonb) as o(company uuid, rule uuid, subject text, chat uuid, "order" uuid, due timestamptz)
          join automation_rules r on r.id = o.rule
        on conflict (rule_id, subject) do ${kind === 'set' ? sql`update set due_at = excluded.due_at, claimed_at = null, chat_id = coalesce(excluded.chat_id, automation_timers.chat_id)` : sql`nothing`}`);
  }
}

/** The spine's side of the timers: the enabled timer rules of the round's companies, then the plan, applied. */
export async function setTimers(deps: Pick<EngineDeps, 'db'>, events: DomainEvent[]): Promise<number> {
  const wanted = events.filter((e) => (TIMER_EVENTS as readonly string[]).includes(e.type));
  if (!wanted.length) return 0;
  const companies = [...new Set(wanted.map((e) => e.companyId))];
  const rules = await rowsOf<TimerRule>(
    deps.db,
    sql`select id::text, company_id::text, timer from automation_rules
         where enabled and trigger_event = 'timer' and company_id = any(${`{${companies.join(',')}}`}::uuid[])`,
  );
  if (!rules.length) return 0;
  const ops = planTimers(rules, wanted);
  if (ops.length) await applyTimers(deps.db, ops);
  return ops.length;
}

interface DueTimer extends Record<string, unknown> {
  id: string;
  company_id: string;
  rule_id: string;
  chat_id: string | null;
  order_id: string | null;
  due_at: string | Date;
  due_exact: string;
  /** A «Esperar y luego seguir»: the run it holds and the action it goes on from. */
  run_id: string | null;
  resume_at: number | null;
}

/**
 * Fires the timers that are due, TIMER_BATCH at a time: each one's rule is judged against its chat
 * now, and the batch's runs go through `runBatch` (one statement claims them all, a rule that only
 * writes our own rows does each action for the whole batch in one statement, the rest run side by
 * side). A run is unique per timer and time, so a timer a dead process had claimed, taken again
 * after the lease (`leaseSeconds`, AUTOMATION_TIMER_LEASE_SECONDS), does not fire twice. A fired
 * timer is dropped unless an event moved it meanwhile. Answers how many fired.
 */
export async function fireTimers(deps: EngineDeps, { leaseSeconds = TIMER_LEASE_SECONDS }: { leaseSeconds?: number } = {}): Promise<number> {
  let fired = 0;
  for (;;) {
    const due = await rowsOf<DueTimer>(
      deps.db,
      sql`update automation_timers t set claimed_at = now()
           where t.id in (select id from automation_timers
                           where due_at <= now() and (claimed_at is null or claimed_at < now() - make_interval(secs => ${leaseSeconds}))
                           order by due_at limit ${TIMER_BATCH} for update skip locked)
          returning t.id::text, t.company_id::text, t.rule_id::text, t.chat_id::text, t.order_id::text, t.due_at, t.due_at::text as due_exact, t.run_id::text, t.resume_at`,
    );
    if (!due.length) return fired;
    const ids = [...new Set(due.map((d) => d.rule_id))];
    const rules = new Map(
      (
        await rowsOf<StoredRule & { timer: TimerSpec | null } & Record<string, unknown>>(
          deps.db,
          sql`select id::text, company_id::text, name, trigger_event, match, conditions, actions, timer from automation_rules
               where enabled and id = any(${`{${ids.join(',')}}`}::uuid[])`,
        )
      ).map((r) => [r.id, r]),
    );
    // what each timer's rule sees now, in one statement for the batch
    const contexts = await contextsOf(
      deps.db,
      due.map((t) => ({ companyId: t.company_id, chatId: t.chat_id ?? undefined, orderId: t.order_id ?? undefined })),
    );
    const items: BatchItem[] = [];
    const resumes: Resume[] = [];
    for (const [k, t] of due.entries()) {
      const rule = rules.get(t.rule_id);
      const ctx = contexts[k];
      if (t.run_id) {
        resumes.push({ runId: t.run_id, from: Number(t.resume_at ?? 0), ctx, rule });
        continue;
      }
      if (!rule?.timer) continue;
      const timer = rule.timer;
      const { matched, evaluated } = judge(rule, ctx);
      if (!matched) continue;
      const dueIso = new Date(t.due_at).toISOString();
      items.push({ e: { id: stableId(t.id, dueIso), type: `timer.${timer.kind}`, occurredAt: dueIso, companyId: t.company_id }, ctx, rule, evaluated, depth: 1 });
    }
    fired += await runBatch(deps, items, TIMER_LANES);
    fired += await resumeRuns(deps, resumes, TIMER_LANES);
    // fired: gone, unless an event set it again meanwhile (its time moved)
    // (compared to the microsecond: a time written by SQL has more digits than a JavaScript date keeps)
    await deps.db.execute(sql`delete from automation_timers t using jsonb_to_recordset(${JSON.stringify(due.map((d) => ({ id: d.id, due: d.due_exact })))}::jsonb) as o(id uuid, due timestamptz)
        where t.id = o.id and t.due_at = o.due`);
    if (due.length < TIMER_BATCH) return fired;
  }
}
