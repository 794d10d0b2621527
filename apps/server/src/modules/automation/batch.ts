import { AUTOMATION_MAX_DEPTH, type AutomationAction, automationMessages } from '@mostrador/contract';
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

  if (oneByOne.length) {
    // the hour's rule messages per chat, in one statement, shared by the runs of a chat
    const chats = [...new Set(oneByOne.map((c) => c.item.ctx.chatId).filter((id): id is string => !!id))];
    const sent = new Map<string, number>();
    if (chats.length) {
      for (const row of await rowsOf<{ chat_id: string; n: number }>(
        deps.db,
        sql`select chat_id::text, coalesce(sum(messages), 0)::int as n from automation_runs
             where chat_id = any(${`{${chats.join(',')}}`}::uuid[]) and created_at > now() - interval '1 hour' group by chat_id`,
      ))
        sent.set(row.chat_id, Number(row.n));
    }
    // runs of one chat go one after another (their messages and their cap in order); chats side by side
    const perChat = new Map<string, Claimed[]>();
    for (const c of oneByOne) {
      const key = c.item.ctx.chatId ?? `run:${c.runId}`;
      perChat.set(key, [...(perChat.get(key) ?? []), c]);
    }
    const queue = [...perChat.entries()];
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [chat, runs] = next;
        for (const c of runs) {
          try {
            const outcome = await act(deps, c.item.rule, c.item.ctx, { id: c.runId, event: c.item.e, sentThisHour: sent.get(chat) ?? 0 });
            c.acted = outcome.acted;
            c.messages = outcome.messages;
          } catch (error) {
            deps.log.warn({ err: error, ruleId: c.item.rule.id }, 'una regla de automatización falló');
          }
          sent.set(chat, (sent.get(chat) ?? 0) + c.messages);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, queue.length) }, lane));
  }

  // every outcome, and each rule's last run, in one statement
  await deps.db.execute(
    sql`with o as (select * from jsonb_to_recordset(${JSON.stringify(
      claimed.map((c) => {
        const failed = c.acted.find((a) => !a.ok);
        return { id: c.runId, status: failed ? 'error' : 'ok', actions: c.acted, messages: c.messages, error: failed?.detail ?? null };
      }),
    )}::jsonb) as o(id uuid, status text, actions jsonb, messages int, error text)),
        done as (update automation_runs r set status = o.status, actions = o.actions, messages = o.messages, error = o.error from o where r.id = o.id returning r.rule_id)
        update automation_rules set last_run_at = now() where id in (select rule_id from done)`,
  );
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
