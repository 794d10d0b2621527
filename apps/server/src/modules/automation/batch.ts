import { AUTOMATION_MAX_DEPTH, AUTOMATION_MESSAGES_PER_CHAT_HOUR, type AutomationAction, automationActionMessages, automationMessages } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/database.js';
import { stableId } from '../../lib/stable-id.js';
import { type Acted, act, type EngineDeps, type Evaluated, type RuleContext, type RunFor, type StoredRule } from './engine.js';

/**
 * Many runs at once (decision 0077, the timers' bench): a batch of timers that came due — 500 per
 * claim — is run in a handful of statements instead of three or more per timer.
 *
 * - the runs are claimed in ONE statement (unique per rule and event, as `runJudged` does one by one);
 * - a rule whose actions only write the product's own rows (labels, agent, lead status, a note,
 *   resolve) does each action for ALL its runs of the batch in ONE statement, in the actions'
 *   order, the rule named as their actor; the events they emit are the spine's as always;
 * - a rule that sends, calls out, notifies or schedules runs through `act` one run at a time
 *   (LANES side by side), its per-chat message cap counted as `runJudged` counts it;
 * - every outcome, and each rule's last run, is written in ONE statement at the end.
 *
 * A crash anywhere leaves runs 'running': the next claim takes them again, and what they did
 * already is not done twice (a note keeps its id, a label or a status is set only if missing).
 */

/** The actions a batch does in one statement for all a rule's runs: they only write our own rows. */
const BULK_ACTIONS = new Set<AutomationAction['type']>(['add_label', 'remove_label', 'assign_agent', 'unassign', 'set_lead_status', 'note', 'resolve']);
export const bulkable = (rule: StoredRule) => rule.actions.every((a) => BULK_ACTIONS.has(a.type));

export interface BatchItem {
  e: RunFor;
  ctx: RuleContext;
  rule: StoredRule;
  evaluated: Evaluated[];
  depth: number;
}

interface Claimed {
  item: BatchItem;
  runId: string;
  acted: Acted[];
  messages: number;
  waiting?: boolean;
  /** A resumed run: the action it goes on from, and what it did before its wait. */
  from?: number;
  before?: { acted: Acted[]; messages: number };
}

/** Runs the batch's items (each a rule whose conditions held for an event or a timer). Answers how many ran. */
export async function runBatch(deps: EngineDeps, items: BatchItem[], lanes = 8): Promise<number> {
  // one run per rule and event (a statement may not claim a row twice)
  items = [...new Map(items.map((it) => [`${it.rule.id}|${it.e.id}`, it])).values()];
  if (!items.length) return 0;
  const claimedRows = await rowsOf<{ id: string; rule_id: string; event_id: string; status: string }>(
    deps.db,
    sql`insert into automation_runs (company_id, rule_id, event_id, event_type, chat_id, status, depth, conditions, error)
        select x.company, x.rule, x.event, x.type, x.chat, x.status, x.depth, x.conditions, x.error
          from jsonb_to_recordset(${JSON.stringify(
            items.map((it) => {
              const cut = it.depth > AUTOMATION_MAX_DEPTH;
              return {
                company: it.e.companyId,
                rule: it.rule.id,
                event: it.e.id,
                type: it.e.type,
                chat: it.ctx.chatId,
                status: cut ? 'skipped' : 'running',
                depth: it.depth,
                conditions: it.evaluated,
                error: cut ? automationMessages.chainCut : null,
              };
            }),
          )}::jsonb) as x(company uuid, rule uuid, event uuid, type text, chat uuid, status text, depth int, conditions jsonb, error text)
        on conflict (rule_id, event_id) do update set status = automation_runs.status where automation_runs.status = 'running'
        returning id::text, rule_id::text, event_id::text, status`,
  );
  const at = new Map(items.map((it) => [`${it.rule.id}|${it.e.id}`, it]));
  const claimed: Claimed[] = claimedRows
    .filter((r) => r.status !== 'skipped')
    .map((r) => ({ item: at.get(`${r.rule_id}|${r.event_id}`) as BatchItem, runId: r.id, acted: [], messages: 0 }))
    .filter((c) => c.item);
  if (!claimed.length) return 0;

  const byRule = new Map<string, Claimed[]>();
  const oneByOne: Claimed[] = [];
  for (const c of claimed) {
    if (!bulkable(c.item.rule)) {
      oneByOne.push(c);
      continue;
    }
    const list = byRule.get(c.item.rule.id) ?? [];
    list.push(c);
    byRule.set(c.item.rule.id, list);
  }
  for (const runs of byRule.values()) await actInBulk(deps, runs);

  await actOneByOne(deps, oneByOne, lanes);
  await writeOutcomes(deps, claimed);
  return claimed.length;
}

/**
 * Runs that send, call out or wait, through `act`: the hour's rule messages per chat in one
 * statement, the runs of one chat one after another (their messages and their cap in order),
 * chats `lanes` side by side.
 */
async function actOneByOne(deps: EngineDeps, runs: Claimed[], lanes: number): Promise<void> {
  if (!runs.length) return;
  const chats = [...new Set(runs.map((c) => c.item.ctx.chatId).filter((id): id is string => !!id))];
  const companies = [...new Set(runs.map((c) => c.item.e.companyId))];
  // the hour's rule messages per chat and each company's cap (its setting), in one statement
  const sent = new Map<string, number>();
  const caps = new Map<string, number>();
  for (const row of await rowsOf<{ kind: string; id: string; n: number }>(
    deps.db,
    sql`select 'chat' as kind, chat_id::text as id, coalesce(sum(messages), 0)::int as n from automation_runs
         where chat_id = any(${`{${chats.join(',')}}`}::uuid[]) and created_at > now() - interval '1 hour' group by chat_id
        union all
        select 'cap', company_id::text, messages_per_chat_hour::int from automation_settings where company_id = any(${`{${companies.join(',')}}`}::uuid[])`,
  ))
    (row.kind === 'chat' ? sent : caps).set(row.id, Number(row.n));
  const perChat = new Map<string, Claimed[]>();
  for (const c of runs) {
    const key = c.item.ctx.chatId ?? `run:${c.runId}`;
    perChat.set(key, [...(perChat.get(key) ?? []), c]);
  }
  const queue = [...perChat.entries()];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [chat, list] = next;
      for (const c of list) {
        try {
          const cap = caps.get(c.item.e.companyId) ?? AUTOMATION_MESSAGES_PER_CHAT_HOUR;
          const outcome = await act(deps, c.item.rule, c.item.ctx, { id: c.runId, event: c.item.e, sentThisHour: sent.get(chat) ?? 0, cap, from: c.from });
          c.acted = outcome.acted;
          c.messages = outcome.messages;
          c.waiting = outcome.waiting;
        } catch (error) {
          deps.log.warn({ err: error, ruleId: c.item.rule.id }, 'una regla de automatización falló');
        }
        sent.set(chat, (sent.get(chat) ?? 0) + c.messages);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, queue.length) }, lane));
}

/** Every outcome, and each rule's last run, in one statement (a resumed run keeps what it did before its wait). */
async function writeOutcomes(deps: EngineDeps, claimed: Claimed[]): Promise<void> {
  if (!claimed.length) return;
  await deps.db.execute(
    sql`with o as (select * from jsonb_to_recordset(${JSON.stringify(
      claimed.map((c) => {
        const acted = [...(c.before?.acted.slice(0, c.from) ?? []), ...c.acted];
        const failed = acted.find((a) => !a.ok);
        return {
          id: c.runId,
          status: c.waiting ? 'waiting' : failed ? 'error' : 'ok',
          actions: acted,
          messages: (c.before?.messages ?? 0) + c.messages,
          error: failed?.detail ?? null,
        };
      }),
    )}::jsonb) as o(id uuid, status text, actions jsonb, messages int, error text)),
        done as (update automation_runs r set status = o.status, actions = o.actions, messages = o.messages, error = o.error from o where r.id = o.id returning r.rule_id)
        update automation_rules set last_run_at = now() where id in (select rule_id from done)`,
  );
}

/** A «Esperar y luego seguir» whose time came: the run it holds, and the action it goes on from. */
export interface Resume {
  runId: string;
  from: number;
  ctx: RuleContext;
  /** Its rule, if still enabled. */
  rule: StoredRule | undefined;
}

/**
 * The waits that came due: each run goes on from the action after its wait, against its chat as
 * it is now (the conditions are not judged again), once — the run is claimed from 'waiting' (or
 * from 'running', as a crash mid-way left it: what it did already keeps its ids). A rule disabled
 * meanwhile ends its waiting runs as skipped, saying why. Answers how many went on.
 */
export async function resumeRuns(deps: EngineDeps, resumes: Resume[], lanes = 8): Promise<number> {
  if (!resumes.length) return 0;
  const gone = resumes.filter((r) => !r.rule).map((r) => r.runId);
  if (gone.length) {
    await deps.db.execute(
      sql`update automation_runs set status = 'skipped', error = ${automationActionMessages.waitDisabled}
           where id = any(${`{${gone.join(',')}}`}::uuid[]) and status in ('waiting', 'running')`,
    );
  }
  const live = resumes.filter((r) => r.rule);
  if (!live.length) return 0;
  const rows = await rowsOf<{ id: string; company_id: string; event_id: string; event_type: string; created_at: string | Date; actions: Acted[] | null; messages: number }>(
    deps.db,
    sql`update automation_runs set status = 'running' where id = any(${`{${live.map((r) => r.runId).join(',')}}`}::uuid[]) and status in ('waiting', 'running')
        returning id::text, company_id::text, event_id::text, event_type, created_at, actions, messages`,
  );
  const byRun = new Map(live.map((r) => [r.runId, r]));
  const claimed: Claimed[] = rows.map((row) => {
    const r = byRun.get(row.id) as Resume;
    return {
      item: { e: { id: row.event_id, type: row.event_type, occurredAt: new Date(row.created_at).toISOString(), companyId: row.company_id }, ctx: r.ctx, rule: r.rule as StoredRule, evaluated: [], depth: 1 },
      runId: row.id,
      from: r.from,
      before: { acted: Array.isArray(row.actions) ? row.actions : [], messages: Number(row.messages ?? 0) },
      acted: [],
      messages: 0,
    };
  });
  await actOneByOne(deps, claimed, lanes);
  await writeOutcomes(deps, claimed);
  return claimed.length;
}

/**
 * One rule's actions for all its runs of the batch: each action ONE statement over the runs'
 * leads or chats, in the actions' order, as the rule. A run without the lead or chat an action
 * needs gets the same refusal `act` gives; the others are done.
 */
async function actInBulk(deps: EngineDeps, runs: Claimed[]): Promise<void> {
  const rule = runs[0].item.rule;
  const companyId = rule.company_id;
  const actor = sql`with actor as (select set_config('mostrador.actor', ${JSON.stringify({ type: 'rule', id: rule.id })}, true) as v)`;
  const named = sql`(select v from actor) is not null`;
  const list = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;
  for (const [i, a] of rule.actions.entries()) {
    const onLead = a.type !== 'note' && a.type !== 'resolve';
    const have = runs.filter((c) => (onLead ? c.item.ctx.leadId : c.item.ctx.chatId));
    for (const c of runs) if (!have.includes(c)) c.acted.push({ type: a.type, ok: false, detail: onLead ? 'El evento no tiene un lead en el que actuar' : automationMessages.noChat });
    if (!have.length) continue;
    const leads = () => list([...new Set(have.map((c) => c.item.ctx.leadId))].map((lead) => ({ lead })));
    let statement: SQL;
    switch (a.type) {
      case 'add_label':
      case 'remove_label': {
        const labels = JSON.stringify([a.labelId]);
        statement =
          a.type === 'add_label'
            ? sql`${actor} update leads l set mostrador_labels = coalesce(l.mostrador_labels, '[]'::jsonb) || ${labels}::jsonb, updated_at = now()
                   from ${leads()} as x(lead uuid)
                   where l.company_id = ${companyId} and l.id = x.lead and not coalesce(l.mostrador_labels, '[]'::jsonb) @> ${labels}::jsonb and ${named}`
            : sql`${actor} update leads l set mostrador_labels = l.mostrador_labels - ${a.labelId}::text, updated_at = now()
                   from ${leads()} as x(lead uuid)
                   where l.company_id = ${companyId} and l.id = x.lead and l.mostrador_labels @> ${labels}::jsonb and ${named}`;
        break;
      }
      case 'assign_agent':
      case 'unassign': {
        const agent = a.type === 'assign_agent' ? a.agentId : null;
        statement = sql`${actor} update leads l set agente_id = ${agent}::uuid, updated_at = now() from ${leads()} as x(lead uuid)
                         where l.company_id = ${companyId} and l.id = x.lead and l.agente_id is distinct from ${agent}::uuid and ${named}`;
        break;
      }
      case 'set_lead_status':
        statement = sql`${actor} update leads l set status = ${a.status}, updated_at = now() from ${leads()} as x(lead uuid)
                         where l.company_id = ${companyId} and l.id = x.lead and l.status is distinct from ${a.status} and ${named}`;
        break;
      case 'resolve':
        // the open screens hear of it from its event (chat.resolved → the realtime listener)
        statement = sql`${actor} update chats c set status = 'closed', snoozed_until = null, updated_at = now()
                         from ${list([...new Set(have.map((c) => c.item.ctx.chatId))].map((chat) => ({ chat })))} as x(chat uuid)
                         where c.company_id = ${companyId} and c.id = x.chat and c.status <> 'closed' and ${named}`;
        break;
      case 'note':
        statement = sql`${actor} insert into chat_messages (id, company_id, chat_id, direction, kind, text, status, sent_at)
                         select x.id, ${companyId}::uuid, x.chat, 'out', 'note', ${a.text}, 'received', now()
                           from actor, ${list(have.map((c) => ({ id: stableId(c.runId, String(i)), chat: c.item.ctx.chatId })))} as x(id uuid, chat uuid)
                         on conflict (id) do nothing`;
        break;
      default:
        throw new Error(`acción ${a.type} no se hace en lote`);
    }
    try {
      await deps.db.execute(statement);
      for (const c of have) c.acted.push({ type: a.type, ok: true });
    } catch (error) {
      deps.log.warn({ err: error, ruleId: rule.id, action: a.type }, 'una acción de una regla falló');
      for (const c of have) c.acted.push({ type: a.type, ok: false, detail: 'Error interno al ejecutar la acción' });
    }
  }
}
