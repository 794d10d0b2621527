import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { settledStatusSql } from '../resources/assignment-rules.js';

/**
 * Who holds what in the demo (decision 0025): the admin (Ana) and the agent user (Carlos) are
 * agents of Demo Perú, available; the conversations are dealt so that the top of the inbox holds
 * Carlos's chats ("Mías" for agente@demo.com), unassigned ones and other agents'; every lead's
 * status agrees with its agent (a sin-asignar lead has none). Runs after the resources and
 * chats are seeded, in the seed's transaction.
 */
export async function seedDemoAssignment(db: Db, companyId: string): Promise<void> {
  const people = await rowsOf<{ user_id: string; first_name: string; last_name: string; email: string; role: string }>(
    db,
    sql`select u.id as user_id, u.first_name, u.last_name, u.email, m.role from memberships m join users u on u.id = m.user_id
        where m.company_id = ${companyId} order by (m.role = 'admin') desc, u.email`,
  );
  const agentOf = new Map<string, string>();
  for (const p of people) {
    const [agent] = await rowsOf<{ id: string }>(
      db,
      sql`insert into agentes (company_id, name, email, active, available, user_id)
          values (${companyId}, ${`${p.first_name} ${p.last_name}`}, ${p.email}, true, true, ${p.user_id}) returning id`,
    );
    agentOf.set(p.role, agent.id);
  }
  const carlos = agentOf.get('agent');
  const ana = agentOf.get('admin');
  if (!carlos || !ana) return;
  const others = (
    await rowsOf<{ id: string }>(db, sql`select id from agentes where company_id = ${companyId} and user_id is null and active is not false order by name`)
  ).map((r) => r.id);

  // the conversations, newest first: Carlos, nobody, someone else (Ana or another agent), in turn
  const chatLeads = await rowsOf<{ lead_id: string }>(
    db,
    sql`select c.lead_id from chats c where c.company_id = ${companyId} and c.lead_id is not null
        order by c.last_message_at desc nulls first, c.id`,
  );
  const dealt = chatLeads.map((c, i) => ({
    id: c.lead_id,
    agent: i % 3 === 0 ? carlos : i % 3 === 1 ? null : i % 6 === 2 || others.length === 0 ? ana : others[Math.floor(i / 6) % others.length],
  }));
  // the other leads: a share for Carlos, the unassigned bucket keeps its own
  const rest = await rowsOf<{ id: string }>(
    db,
    sql`select id from leads l where company_id = ${companyId} and status <> 'sin-asignar'
        and not exists (select 1 from chats c where c.company_id = l.company_id and c.lead_id = l.id) order by created_at desc, id`,
  );
  dealt.push(...rest.filter((_, i) => i % 4 === 0).map((l) => ({ id: l.id, agent: carlos })));
  for (const { id, agent } of dealt) {
    await db.execute(sql`update leads set agente_id = ${agent}::uuid where company_id = ${companyId} and id = ${id}`);
  }
  // a person's clean lead follows their conversation's lead
  await db.execute(sql`update clean_leads k set agente_id = l.agente_id from leads l
      where l.company_id = ${companyId} and k.company_id = l.company_id and k.id = l.clean_lead_id
        and exists (select 1 from chats c where c.company_id = l.company_id and c.lead_id = l.id)`);
  // status and agent agree (the rule of decision 0025): a sin-asignar lead that was not dealt has no
  // agent; an assigned one is not sin-asignar
  const held = dealt.filter((d) => d.agent).map((d) => d.id);
  await db.execute(sql`update leads set agente_id = null where company_id = ${companyId} and status = 'sin-asignar'
      and agente_id is not null and id <> all(${`{${held.join(',')}}`}::uuid[])`);
  await db.execute(sql`update clean_leads k set agente_id = null where company_id = ${companyId} and status = 'sin-asignar' and agente_id is not null
      and not exists (select 1 from leads l join chats c on c.company_id = l.company_id and c.lead_id = l.id
        where l.company_id = k.company_id and l.clean_lead_id = k.id)`);
  for (const table of ['leads', 'clean_leads']) {
    await db.execute(sql`update ${sql.raw(table)} set status = ${settledStatusSql(sql`agente_id`)} where company_id = ${companyId}`);
  }
}

/**
 * The demo's routes of /etiquetas-y-agentes (decision 0054): «Mayoristas» sends the label
 * Mayorista to Carlos and Ana, «Reclamos» sends «Reclamo pendiente» to Ana. Set last in the
 * seed, so the demo's leads stay dealt as seeded; a lead labelled from then on is routed.
 */
export async function seedDemoLabelRoutes(db: Db, companyId: string): Promise<void> {
  const labels = new Map(
    (await rowsOf<{ id: string; name: string }>(db, sql`select id::text, name from mostrador_labels where company_id = ${companyId}`)).map((l) => [l.name, l.id]),
  );
  const agents = new Map(
    (await rowsOf<{ id: string; email: string | null }>(db, sql`select id::text, email from agentes where company_id = ${companyId} and user_id is not null`)).map((a) => [a.email, a.id]),
  );
  const carlos = agents.get('agente@demo.com');
  const ana = agents.get('admin@demo.com');
  const routes: Array<[string, string | undefined, Array<string | undefined>]> = [
    ['Mayoristas', labels.get('Mayorista'), [carlos, ana]],
    ['Reclamos', labels.get('Reclamo pendiente'), [ana]],
  ];
  for (const [group, label, to] of routes) {
    const agentIds = to.filter((x): x is string => !!x);
    if (!label || !agentIds.length) continue;
    await db.execute(sql`update chat_groups set mostrador_label_ids = ${JSON.stringify([label])}::jsonb, agente_ids = ${JSON.stringify(agentIds)}::jsonb, updated_at = now()
        where company_id = ${companyId} and name = ${group}`);
  }
}
