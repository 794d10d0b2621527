import { randomUUID } from 'node:crypto';
import type { AutomationAction, AutomationCondition } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';

/**
 * The demo's automation rules (/automatizaciones, decision 0077) with a week of runs: complaints
 * to Ana with a note, wholesale quotes to Carlos with an answer, a paid order marks its lead as a
 * purchase, and the ERP's webhook. All start switched off: the demo's company is also the one the
 * test suites write to, and a newcomer's first message should not be answered by surprise —
 * «Activar» on /automatizaciones shows one at work. Their runs are history.
 */
export async function seedDemoAutomation(db: Db, companyId: string, adminId: string | null): Promise<void> {
  const labels = new Map((await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from mostrador_labels where company_id = ${companyId}`)).map((l) => [l.name, l.id]));
  const agents = new Map(
    (await rowsOf<{ id: string; email: string | null }>(db, sql`select id::text, email from agentes where company_id = ${companyId} and user_id is not null`)).map((a) => [a.email, a.id]),
  );
  const reclamo = labels.get('Reclamo pendiente');
  const mayorista = labels.get('Mayorista');
  const ana = agents.get('admin@demo.com');
  const carlos = agents.get('agente@demo.com');
  if (!reclamo || !mayorista || !ana || !carlos) return;
  const rules: Array<{ name: string; enabled: boolean; event: string; match: 'all' | 'any'; conditions: AutomationCondition[]; actions: AutomationAction[]; runs: number }> = [
    {
      name: 'Reclamos a Ana',
      enabled: false,
      event: 'message.received',
      match: 'any',
      conditions: [
        { field: 'text', op: 'contains', value: 'reclamo' },
        { field: 'text', op: 'contains', value: 'queja' },
        { field: 'text', op: 'matches', value: 'no (me )?lleg' },
      ],
      actions: [
        { type: 'add_label', labelId: reclamo },
        { type: 'assign_agent', agentId: ana },
        { type: 'note', text: 'El cliente escribió un reclamo: respóndele hoy.' },
      ],
      runs: 6,
    },
    {
      name: 'Cotizaciones mayoristas a Carlos',
      enabled: false,
      event: 'message.received',
      match: 'all',
      conditions: [
        { field: 'text', op: 'matches', value: 'precio|cotiza|por caja|al por mayor' },
        { field: 'agent', op: 'none' },
      ],
      actions: [
        { type: 'add_label', labelId: mayorista },
        { type: 'assign_agent', agentId: carlos },
        { type: 'send_text', text: '¡Hola! Gracias por escribirnos. Carlos te envía la cotización en unos minutos.' },
      ],
      runs: 9,
    },
    {
      name: 'Pedido pagado: compra realizada',
      enabled: false,
      event: 'order.status_changed',
      match: 'all',
      conditions: [{ field: 'order_status', op: 'is', value: 'paid' }],
      actions: [{ type: 'set_lead_status', status: 'compra-realizada' }],
      runs: 4,
    },
    {
      name: 'Avisar al ERP de cada reclamo',
      enabled: false,
      event: 'lead.labelled',
      match: 'all',
      conditions: [{ field: 'label', op: 'has', value: reclamo }],
      actions: [{ type: 'webhook', url: 'https://erp.ejemplo.pe/hooks/reclamos' }],
      runs: 0,
    },
  ];
  const chats = (await rowsOf<{ id: string }>(db, sql`select id::text from chats where company_id = ${companyId} and platform = 'whatsapp' order by last_message_at desc nulls last limit 20`)).map((c) => c.id);
  for (const [position, r] of rules.entries()) {
    const [rule] = await rowsOf<{ id: string }>(
      db,
      sql`insert into automation_rules (company_id, name, enabled, position, trigger_event, match, conditions, actions, created_by, created_at, updated_at, last_run_at)
          values (${companyId}, ${r.name}, ${r.enabled}, ${position + 1}, ${r.event}, ${r.match}, ${JSON.stringify(r.conditions)}::jsonb, ${JSON.stringify(r.actions)}::jsonb,
                  ${adminId}, now() - interval '10 days', now() - interval '10 days', ${r.runs ? sql`now() - interval '2 hours'` : sql`null`})
          returning id::text`,
    );
    for (let i = 0; i < r.runs; i++) {
      const chat = chats[(position * 7 + i) % Math.max(chats.length, 1)] ?? null;
      // the latest run of the quotes rule could not answer: that customer's window had closed
      const late = r.actions.some((a) => a.type === 'send_text') && i === 0;
      const acted = r.actions.map((a) => (late && a.type === 'send_text' ? { type: a.type, ok: false, detail: 'La ventana de 24 horas está cerrada: fuera de ella solo se envían plantillas' } : { type: a.type, ok: true }));
      const evaluated = r.conditions.map((c, k) => ({ ...c, passed: r.match === 'all' || k === i % r.conditions.length }));
      await db.execute(sql`insert into automation_runs (company_id, rule_id, event_id, event_type, chat_id, status, depth, conditions, actions, messages, error, created_at)
          values (${companyId}, ${rule.id}, ${randomUUID()}, ${r.event}, ${chat}, ${late ? 'error' : 'ok'}, 1, ${JSON.stringify(evaluated)}::jsonb, ${JSON.stringify(acted)}::jsonb,
                  ${r.actions.some((a) => a.type === 'send_text') && !late ? 1 : 0}, ${late ? acted.find((a) => !a.ok)?.detail ?? null : null},
                  now() - make_interval(mins => ${120 + i * 811}))`);
    }
  }
}

/**
 * The demo's automation settings (decision 0080): the default cap of rule messages per chat and
 * hour, saved, so «Ajustes» on /automatizaciones opens on the company's own row. It acts on nothing.
 */
export async function seedDemoAutomationSettings(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`insert into automation_settings (company_id, messages_per_chat_hour) values (${companyId}, 10) on conflict (company_id) do nothing`);
}
