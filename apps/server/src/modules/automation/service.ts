import {
  type AutomationAction,
  type AutomationRuleOut,
  type AutomationRunOut,
  type AutomationTestOut,
  automationActionMessages,
  automationMessages,
  type automationRuleIn,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, isoOf, rowsOf } from '../../db/database.js';
import { assertTargetUrl } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { countryTimezone, validTimezone } from '../leads/summary.js';
import { contextOf, describe, evaluate, judge, type StoredRule } from './engine.js';

const notFound = () => new AppError('NOT_FOUND', 'La regla no existe');
const ENTITY = 'automation_rules';

type RuleInput = z.output<typeof automationRuleIn>;

interface RuleRow extends Record<string, unknown> {
  id: string;
  name: string;
  enabled: boolean;
  position: number;
  trigger_event: string;
  timer: Extract<AutomationRuleOut['trigger'], { timer: unknown }>['timer'] | null;
  match: 'all' | 'any';
  conditions: AutomationRuleOut['conditions'];
  actions: AutomationAction[];
  last_run_at: string | null;
  runs_today: number;
  created_at: string;
  updated_at: string;
}

const ruleOf = (r: RuleRow): AutomationRuleOut => ({
  _id: r.id,
  name: r.name,
  enabled: r.enabled,
  position: Number(r.position),
  trigger: r.trigger_event === 'timer' && r.timer ? { timer: r.timer } : ({ event: r.trigger_event } as AutomationRuleOut['trigger']),
  match: r.match,
  conditions: r.conditions,
  actions: r.actions,
  lastRunAt: isoOf(r.last_run_at),
  runsToday: Number(r.runs_today ?? 0),
  createdAt: isoOf(r.created_at) as string,
  updatedAt: isoOf(r.updated_at) as string,
});

/** What the audit log keeps of a rule. */
const audited = (r: { name: string; enabled: boolean; trigger_event: string; timer: unknown; match: string; conditions: unknown; actions: unknown }) => ({
  name: r.name,
  enabled: r.enabled,
  trigger: r.trigger_event === 'timer' ? { timer: r.timer } : { event: r.trigger_event },
  match: r.match,
  conditions: r.conditions,
  actions: r.actions,
});

/**
 * Every id a rule names (labels, agents, lines, sales teams, templates) is the company's: one statement answers which are
 * not, so another company's id nested in a condition or an action is a 400, never stored.
 */
async function assertOwnIds(db: Pick<Db, 'execute'>, tenant: Tenant, input: RuleInput): Promise<void> {
  const wanted: Array<{
    table: 'mostrador_labels' | 'agentes' | 'telefonos' | 'whatsapp_templates' | 'equipos_de_ventas' | 'imagina_template_messages';
    id: string;
    path: string;
    msg: string;
  }> = [];
  input.conditions.forEach((c, i) => {
    if (c.field === 'label' && typeof c.value === 'string') wanted.push({ table: 'mostrador_labels', id: c.value, path: `conditions.${i}.value`, msg: automationMessages.unknownLabel });
    if (c.field === 'agent' && typeof c.value === 'string') wanted.push({ table: 'agentes', id: c.value, path: `conditions.${i}.value`, msg: automationMessages.unknownAgent });
    if (c.field === 'line' && typeof c.value === 'string') wanted.push({ table: 'telefonos', id: c.value, path: `conditions.${i}.value`, msg: automationMessages.unknownPhone });
    if (c.field === 'team' && typeof c.value === 'string') wanted.push({ table: 'equipos_de_ventas', id: c.value, path: `conditions.${i}.value`, msg: automationMessages.unknownTeam });
  });
  input.actions.forEach((a, i) => {
    if (a.type === 'add_label' || a.type === 'remove_label') wanted.push({ table: 'mostrador_labels', id: a.labelId, path: `actions.${i}.labelId`, msg: automationMessages.unknownLabel });
    if (a.type === 'assign_agent') wanted.push({ table: 'agentes', id: a.agentId, path: `actions.${i}.agentId`, msg: automationMessages.unknownAgent });
    if (a.type === 'send_template') wanted.push({ table: 'whatsapp_templates', id: a.templateId, path: `actions.${i}.templateId`, msg: automationMessages.unknownTemplate });
    if (a.type === 'assign_team') wanted.push({ table: 'equipos_de_ventas', id: a.teamId, path: `actions.${i}.teamId`, msg: automationActionMessages.unknownTeam });
    if (a.type === 'send_imagina') wanted.push({ table: 'imagina_template_messages', id: a.templateId, path: `actions.${i}.templateId`, msg: automationActionMessages.unknownImagina });
    if (a.type === 'webhook') assertTargetUrl(a.url, `actions.${i}.url`);
  });
  if (!wanted.length) return;
  const ids = (t: string) => `{${[...new Set(wanted.filter((w) => w.table === t).map((w) => w.id))].join(',')}}`;
  const found = await rowsOf<{ id: string }>(
    db,
    sql`select id::text from mostrador_labels where company_id = ${tenant.companyId} and id = any(${ids('mostrador_labels')}::uuid[])
        union all select id::text from agentes where company_id = ${tenant.companyId} and id = any(${ids('agentes')}::uuid[])
        union all select id::text from telefonos where company_id = ${tenant.companyId} and id = any(${ids('telefonos')}::uuid[])
        union all select id::text from whatsapp_templates where company_id = ${tenant.companyId} and id = any(${ids('whatsapp_templates')}::uuid[])
        union all select id::text from equipos_de_ventas where company_id = ${tenant.companyId} and id = any(${ids('equipos_de_ventas')}::uuid[])
        union all select id::text from imagina_template_messages where company_id = ${tenant.companyId} and id = any(${ids('imagina_template_messages')}::uuid[])`,
  );
  const own = new Set(found.map((f) => f.id));
  const missing = wanted.filter((w) => !own.has(w.id));
  if (missing.length) throw new AppError('VALIDATION', missing[0].msg, missing.map((m) => ({ path: m.path, msg: m.msg })));
}

/** The column a rule's trigger is found by: its event type, or 'timer'. */
const triggerEventOf = (input: RuleInput) => ('event' in input.trigger ? input.trigger.event : 'timer');
const timerOf = (input: RuleInput) => ('timer' in input.trigger ? JSON.stringify(input.trigger.timer) : null);

export function createAutomationService(db: Db) {
  /** The company's zone: "runs today" counts from its midnight. */
  async function zoneOf(tenant: Tenant): Promise<string> {
    const [row] = await rowsOf<{ settings: { timezone?: string } | null; country: string }>(db, sql`select settings, country from companies where id = ${tenant.companyId}`);
    return validTimezone(row?.settings?.timezone) ?? countryTimezone(row?.country);
  }
  async function select(tenant: Tenant, id?: string): Promise<AutomationRuleOut[]> {
    const zone = await zoneOf(tenant);
    const rows = await rowsOf<RuleRow>(
      db,
      sql`select r.id::text, r.name, r.enabled, r.position, r.trigger_event, r.timer, r.match, r.conditions, r.actions, r.last_run_at, r.created_at, r.updated_at,
                 (select count(*)::int from automation_runs x where x.rule_id = r.id
                    and x.created_at >= (date_trunc('day', now() at time zone ${zone}) at time zone ${zone})) as runs_today
            from automation_rules r
           where r.company_id = ${tenant.companyId} ${id ? sql`and r.id = ${id}` : sql``}
           order by r.position, r.created_at`,
    );
    return rows.map(ruleOf);
  }
  async function one(tenant: Tenant, id: string): Promise<AutomationRuleOut> {
    const [rule] = await select(tenant, id);
    if (!rule) throw notFound();
    return rule;
  }
  type Audited = Parameters<typeof audited>[0];
  const before = async (tx: Pick<Db, 'execute'>, tenant: Tenant, id: string) =>
    (
      await rowsOf<Audited & Record<string, unknown>>(
        tx,
        sql`select name, enabled, trigger_event, timer, match, conditions, actions from automation_rules where id = ${id} and company_id = ${tenant.companyId} for update`,
      )
    )[0];

  return {
    list: (tenant: Tenant) => select(tenant),
    one,
    async create(tenant: Tenant, input: RuleInput): Promise<AutomationRuleOut> {
      await assertOwnIds(db, tenant, input);
      const id = await db.transaction(async (tx) => {
        const [row] = await rowsOf<Audited & { id: string }>(
          tx,
          sql`insert into automation_rules (company_id, name, enabled, position, trigger_event, timer, match, conditions, actions, created_by)
              values (${tenant.companyId}, ${input.name}, ${input.enabled}, (select coalesce(max(position), 0) + 1 from automation_rules where company_id = ${tenant.companyId}),
                      ${triggerEventOf(input)}, ${timerOf(input)}::jsonb, ${input.match}, ${JSON.stringify(input.conditions)}::jsonb, ${JSON.stringify(input.actions)}::jsonb, ${tenant.userId || null})
              returning id::text, name, enabled, trigger_event, timer, match, conditions, actions`,
        );
        await audit(tx, { companyId: tenant.companyId, action: 'create', entity: ENTITY, entityId: row.id, changes: changesOf(null, audited(row)) });
        return row.id;
      });
      return one(tenant, id);
    },
    async update(tenant: Tenant, id: string, input: RuleInput & { position?: number }): Promise<AutomationRuleOut> {
      await assertOwnIds(db, tenant, input);
      await db.transaction(async (tx) => {
        const was = await before(tx, tenant, id);
        if (!was) throw notFound();
        const [now] = await rowsOf<Audited & Record<string, unknown>>(
          tx,
          sql`update automation_rules set name = ${input.name}, enabled = ${input.enabled}, trigger_event = ${triggerEventOf(input)}, timer = ${timerOf(input)}::jsonb, match = ${input.match},
                     conditions = ${JSON.stringify(input.conditions)}::jsonb, actions = ${JSON.stringify(input.actions)}::jsonb,
                     position = coalesce(${input.position ?? null}::int, position), updated_at = now()
               where id = ${id} and company_id = ${tenant.companyId}
               returning name, enabled, trigger_event, timer, match, conditions, actions`,
        );
        await audit(tx, { companyId: tenant.companyId, action: 'update', entity: ENTITY, entityId: id, changes: changesOf(audited(was), audited(now)) });
      });
      return one(tenant, id);
    },
    async remove(tenant: Tenant, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const was = await before(tx, tenant, id);
        if (!was) throw notFound();
        await tx.execute(sql`delete from automation_rules where id = ${id} and company_id = ${tenant.companyId}`);
        await audit(tx, { companyId: tenant.companyId, action: 'delete', entity: ENTITY, entityId: id, changes: changesOf(audited(was), null) });
      });
    },
    /** A rule's runs, newest first (at most 100). */
    async runs(tenant: Tenant, id: string): Promise<AutomationRunOut[]> {
      await one(tenant, id);
      const rows = await rowsOf<{
        id: string;
        rule_id: string;
        event_id: string | null;
        event_type: string;
        chat_id: string | null;
        status: AutomationRunOut['status'];
        depth: number;
        conditions: AutomationRunOut['conditions'];
        actions: AutomationRunOut['actions'];
        error: string | null;
        created_at: string;
      }>(
        db,
        sql`select id::text, rule_id::text, event_id::text, event_type, chat_id::text, status, depth, conditions, actions, error, created_at
              from automation_runs where company_id = ${tenant.companyId} and rule_id = ${id} order by created_at desc, id limit 100`,
      );
      return rows.map((r) => ({
        _id: r.id,
        ruleId: r.rule_id,
        eventId: r.event_id,
        eventType: r.event_type,
        chatId: r.chat_id,
        status: r.status,
        depth: Number(r.depth),
        conditions: r.conditions,
        actions: r.actions,
        error: r.error,
        createdAt: isoOf(r.created_at) as string,
      }));
    },
    /** What the rule would do to a chat now (the editor's preview): its conditions judged, its actions described, nothing done. */
    async test(tenant: Tenant, id: string, chatId: string): Promise<AutomationTestOut> {
      const [rule] = await rowsOf<StoredRule & Record<string, unknown>>(
        db,
        sql`select id::text, company_id::text, name, trigger_event, match, conditions, actions from automation_rules where id = ${id} and company_id = ${tenant.companyId}`,
      );
      if (!rule) throw notFound();
      const [chat] = await rowsOf<{ last_in: string | null }>(
        db,
        sql`select (select m.id::text from chat_messages m where m.company_id = ${tenant.companyId} and m.chat_id = c.id and m.direction = 'in' order by m.sent_at desc limit 1) as last_in
              from chats c where c.company_id = ${tenant.companyId} and c.id = ${chatId}`,
      );
      if (!chat) throw new AppError('NOT_FOUND', 'El chat no existe');
      // the chat as the rule would see it if its customer's last message were the event
      const ctx = await contextOf(db, tenant.companyId, { chatId, messageId: chat.last_in ?? undefined });
      // every condition shown, held or not: the preview says which one stops the rule
      const { matched } = judge(rule, ctx);
      const evaluated = rule.conditions.map((c) => evaluate(c, ctx));
      const labels = new Map(
        (await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from mostrador_labels where company_id = ${tenant.companyId}`)).map((l) => [l.id, l.name]),
      );
      const agents = new Map((await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from agentes where company_id = ${tenant.companyId}`)).map((a) => [a.id, a.name]));
      const templates = new Map(
        (await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from whatsapp_templates where company_id = ${tenant.companyId}`)).map((x) => [x.id, x.name]),
      );
      const namesOf = async (table: 'equipos_de_ventas' | 'imagina_template_messages') =>
        new Map((await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from ${sql.raw(table)} where company_id = ${tenant.companyId}`)).map((x) => [x.id, x.name]));
      const teams = rule.actions.some((a) => a.type === 'assign_team') ? await namesOf('equipos_de_ventas') : undefined;
      const imagina = rule.actions.some((a) => a.type === 'send_imagina') ? await namesOf('imagina_template_messages') : undefined;
      return { matched, conditions: evaluated, actions: matched ? rule.actions.map((a) => ({ type: a.type, wouldDo: describe(a, { labels, agents, templates, teams, imagina }) })) : [] };
    },
  };
}
