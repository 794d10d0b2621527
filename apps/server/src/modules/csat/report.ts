import { type ChatCsat, CSAT_SATISFIED_FROM, type CsatReport, type CsatReportQuery, type CsatStatus, type CsatStyle, csatScoreLabel, csatStatusLabels } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { timezoneOf } from '../leads/summary.js';
import { windowOf } from '../metrics/window.js';

/**
 * What the CSAT surveys say (decision 0100): the chat's latest survey for its panel, and the report
 * per agent of GET /metrics/csat — always the caller's company.
 */

interface SurveyRow extends Record<string, unknown> {
  status: CsatStatus;
  style: CsatStyle;
  reason: string | null;
  sent_at: Date | string | null;
  score: number | null;
  answered_at: Date | string | null;
  resolved_at: Date | string;
  agent_name: string | null;
}

const iso = (v: Date | string | null) => (v === null ? undefined : new Date(v).toISOString());

/** The chat's latest survey, or undefined when none was asked. */
export async function csatOfChat(db: Db, companyId: string, chatId: string): Promise<ChatCsat | undefined> {
  const [row] = await rowsOf<SurveyRow>(
    db,
    sql`select v.status, v.style, v.reason, v.sent_at, v.score, v.answered_at, v.resolved_at, a.name as agent_name
          from csat_surveys v left join agentes a on a.company_id = v.company_id and a.id = v.agent_id
         where v.company_id = ${companyId} and v.chat_id = ${chatId}
         order by v.resolved_at desc, v.created_at desc limit 1`,
  );
  if (!row) return undefined;
  const score = row.score === null ? undefined : Number(row.score);
  return {
    status: row.status,
    statusLabel: csatStatusLabels[row.status] ?? row.status,
    style: row.style,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.sent_at ? { sentAt: iso(row.sent_at) } : {}),
    ...(score !== undefined ? { score, scoreLabel: csatScoreLabel(score, row.style), answeredAt: iso(row.answered_at) } : {}),
    resolvedAt: iso(row.resolved_at) as string,
    ...(row.agent_name ? { agentName: row.agent_name } : {}),
  };
}

interface ReportRow extends Record<string, unknown> {
  agent_id: string | null;
  agent_name: string | null;
  sent: number;
  answered: number;
  average: number | null;
  satisfied: number;
  not_sent: number;
}

const figures = (r: Pick<ReportRow, 'sent' | 'answered' | 'average' | 'satisfied' | 'not_sent'>) => {
  const sent = Number(r.sent);
  const answered = Number(r.answered);
  return {
    sent,
    answered,
    responseRate: sent ? answered / sent : null,
    average: answered && r.average !== null ? Math.round(Number(r.average) * 100) / 100 : null,
    satisfiedShare: answered ? Number(r.satisfied) / answered : null,
    notSent: Number(r.not_sent),
  };
};

export const NO_AGENT = 'Sin agente';

/**
 * Per agent, the resolutions of the window (local days of the company's zone, by when the chat was
 * resolved): surveys sent, answered, the response rate, the average score and the share satisfied
 * (4–5, «Bien»), and the resolutions whose survey did not go out. Agents with none are not listed.
 */
export async function csatReport(db: Db, companyId: string, query: CsatReportQuery, now = new Date()): Promise<CsatReport> {
  const timezone = await timezoneOf(db, companyId);
  const { from, to } = windowOf({ from: query.from, to: query.to }, timezone, now);
  const rows = await rowsOf<ReportRow>(
    db,
    sql`select v.agent_id::text, a.name as agent_name,
               count(*) filter (where v.status in ('sent', 'answered'))::int as sent,
               count(*) filter (where v.status = 'answered')::int as answered,
               avg(v.score) filter (where v.status = 'answered')::float8 as average,
               count(*) filter (where v.status = 'answered' and v.score >= ${CSAT_SATISFIED_FROM})::int as satisfied,
               count(*) filter (where v.status in ('not_sent', 'failed'))::int as not_sent
          from csat_surveys v left join agentes a on a.company_id = v.company_id and a.id = v.agent_id
         where v.company_id = ${companyId}
           and v.resolved_at >= (${from}::date)::timestamp at time zone ${timezone}
           and v.resolved_at < ((${to}::date + 1)::timestamp at time zone ${timezone})
         group by v.agent_id, a.name
         order by count(*) filter (where v.status in ('sent', 'answered')) desc, a.name nulls last`,
  );
  const sum = (k: 'sent' | 'answered' | 'satisfied' | 'not_sent') => rows.reduce((n, r) => n + Number(r[k]), 0);
  const answered = sum('answered');
  const scoreSum = rows.reduce((n, r) => n + (r.average === null ? 0 : Number(r.average) * Number(r.answered)), 0);
  return {
    from,
    to,
    timezone,
    agents: rows.map((r) => ({ agentId: r.agent_id, agentName: r.agent_name ?? NO_AGENT, ...figures(r) })),
    total: figures({ sent: sum('sent'), answered, average: answered ? scoreSum / answered : null, satisfied: sum('satisfied'), not_sent: sum('not_sent') }),
  };
}
