import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

type Path = readonly string[];

/**
 * The pipeline board of the demo (/lead/tablero, decision 0099). The company's stages are the
 * lead-stages examples («Respondido por el bot» in «Sin asignar», «Cotización enviada» and
 * «Esperando pago» in «Informado al agente», «Sin respuesta» in «Re-conectar»); here some leads go into them, and every demo lead gets the
 * history a real one would have — it came in «Sin asignar» when it wrote first, an agent took
 * it, and so on to where it is now — so «Embudo de etapas» shows conversions and times on a
 * fresh start. Runs last: the history is rebuilt from where the other seeds left each lead.
 * Deterministic: the same demo on every machine.
 */
export async function seedDemoBoard(db: Db, companyId: string): Promise<void> {
  const { rows: stages } = await db.execute<{ id: string; name: string; maps_to: string }>(
    sql`select id::text, name, maps_to from lead_stages where company_id = ${companyId}`,
  );
  const stage = (name: string) => stages.find((s) => s.name === name)?.id;
  const statusOfStage = new Map(stages.map((s) => [s.id, s.maps_to]));
  /** A column key's status and stage: a stage's id, or a status for its own column. */
  const sides = (key: string) => (statusOfStage.has(key) ? { status: statusOfStage.get(key) as string, stage: key } : { status: key, stage: null });
  const quote = stage('Cotización enviada');
  const waiting = stage('Esperando pago');
  const silent = stage('Sin respuesta');
  const bot = stage('Respondido por el bot');

  // some worked leads a step further on, in the company's own stages (the status stays theirs)
  const into = async (id: string | undefined, status: string, every: number, offset: number) => {
    if (!id) return;
    await db.execute(sql`update leads set stage_id = ${id}::uuid
      where id in (select id from (select id, row_number() over (order by created_at, id) as n from leads where company_id = ${companyId} and status = ${status} and stage_id is null) x
                   where x.n % ${every} = ${offset})`);
  };
  await into(quote, 'informado-al-agente', 3, 1);
  await into(waiting, 'informado-al-agente', 3, 2);
  await into(silent, 're-conectar', 2, 1);
  await into(bot, 'sin-asignar', 3, 0);

  // the way each lead came to where it is: the columns it passed through
  const paths: Record<string, readonly Path[]> = {
    'sin-asignar': [['sin-asignar']],
    'informado-al-agente': [['sin-asignar', 'informado-al-agente']],
    're-conectar': [
      ['sin-asignar', 'informado-al-agente', 're-conectar'],
      ['sin-asignar', 'informado-al-agente', quote ?? 'informado-al-agente', 're-conectar'],
    ],
    'compra-realizada': [
      ['sin-asignar', 'informado-al-agente', quote ?? 'informado-al-agente', waiting ?? 'informado-al-agente', 'compra-realizada'],
      ['sin-asignar', 'informado-al-agente', 'compra-realizada'],
      ['sin-asignar', 'informado-al-agente', quote ?? 'informado-al-agente', 'compra-realizada'],
    ],
    'compra-fallida': [
      ['sin-asignar', 'informado-al-agente', 're-conectar', silent ?? 're-conectar', 'compra-fallida'],
      ['sin-asignar', 'informado-al-agente', quote ?? 'informado-al-agente', 'compra-fallida'],
    ],
  };
  if (quote) paths[quote] = [['sin-asignar', 'informado-al-agente', quote]];
  if (quote && waiting) paths[waiting] = [['sin-asignar', 'informado-al-agente', quote, waiting]];
  if (silent) paths[silent] = [['sin-asignar', 'informado-al-agente', 're-conectar', silent]];
  if (bot) paths[bot] = [['sin-asignar', bot]];
  const { rows: leads } = await db.execute<{ id: string; status: string; stage_id: string | null; created_at: Date; user_id: string | null }>(
    sql`select l.id::text, l.status, l.stage_id::text, l.created_at, a.user_id::text
          from leads l left join agentes a on a.company_id = l.company_id and a.id = l.agente_id
         where l.company_id = ${companyId} order by l.created_at, l.id`,
  );
  const { rows: people } = await db.execute<{ id: string }>(
    sql`select u.id::text from users u join memberships m on m.user_id = u.id where m.company_id = ${companyId} order by u.email`,
  );
  const now = Date.now();
  const history: Array<{ lead: string; at: Date; actor: object; fromStatus: string | null; fromStage: string | null; toStatus: string; toStage: string | null }> = [];
  leads.forEach((lead, i) => {
    const key = lead.stage_id ?? lead.status;
    const options = paths[key] ?? [[key]];
    const path = options[i % options.length] as Path;
    const start = new Date(lead.created_at).getTime();
    // the moves spread over most of the time since the lead came, the last one some hours ago at least
    const span = Math.max(60_000, (now - start) * 0.85);
    const weights = path.slice(1).map((_, k) => 1 + ((i * 7 + k * 13) % 9));
    const sum = weights.reduce((a, b) => a + b, 0) || 1;
    let at = start;
    const who = lead.user_id ?? people[i % Math.max(1, people.length)]?.id;
    const actor = who ? { type: 'user', id: who } : { type: 'system' };
    const first = sides(path[0] as string);
    history.push({ lead: lead.id, at: new Date(at), actor: { type: 'provider', id: 'whatsapp' }, fromStatus: null, fromStage: null, toStatus: first.status, toStage: first.stage });
    for (let k = 1; k < path.length; k++) {
      at += (span * (weights[k - 1] as number)) / sum;
      const from = sides(path[k - 1] as string);
      const to = sides(path[k] as string);
      history.push({ lead: lead.id, at: new Date(Math.min(at, now - 60_000)), actor, fromStatus: from.status, fromStage: from.stage, toStatus: to.status, toStage: to.stage });
    }
  });

  // the rows the seeds' own writes left are replaced by the story above
  await db.execute(sql`delete from lead_stage_history where company_id = ${companyId}`);
  for (let i = 0; i < history.length; i += 500) {
    const chunk = history.slice(i, i + 500);
    await db.execute(sql`insert into lead_stage_history (company_id, lead_id, at, actor, from_status, from_stage_id, to_status, to_stage_id) values ${sql.join(
      chunk.map(
        (h) =>
          sql`(${companyId}, ${h.lead}::uuid, ${h.at.toISOString()}::timestamptz, ${JSON.stringify(h.actor)}::jsonb, ${h.fromStatus}, ${h.fromStage}::uuid, ${h.toStatus}, ${h.toStage}::uuid)`,
      ),
      sql`, `,
    )}`);
  }
}
