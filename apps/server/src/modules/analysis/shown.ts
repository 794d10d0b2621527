import {
  aiCategoryLabels,
  type AiCategory,
  type ChatAnalysisView,
  type ConsultationMotive,
  consultationMotiveLabels,
  type DissatisfactionOrigin,
  dissatisfactionOriginLabels,
  type LatestAnalysis,
  type Platform,
  type Sentiment,
  sentimentLabels,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';

/**
 * What the analysis says about one chat, for the chat's and the lead's calls (issue 31, decision
 * 0092): the stored row of chat_analyses (one per chat, written by the analysis jobs) with the
 * screen's Spanish labels. Always the caller's company: the row's and the chat's company are
 * both the tenant's, so another company's chat answers nothing.
 */

interface AnalysisRow extends Record<string, unknown> {
  chat_id: string;
  platform: string;
  sentiment: string;
  motive: string;
  dissatisfaction_origin: string | null;
  cross_sell_offered: boolean;
  cross_sell_taken: boolean;
  personalised_promotion: boolean;
  quality: number;
  category: string;
  engine: string;
  messages: number;
  analyzed_at: Date | string;
}

const columns = sql`a.chat_id, c.platform, a.sentiment, a.motive, a.dissatisfaction_origin, a.cross_sell_offered, a.cross_sell_taken,
  a.personalised_promotion, a.quality, a.category, a.engine, a.messages, a.analyzed_at`;

function toView(row: AnalysisRow): ChatAnalysisView {
  const origin = row.dissatisfaction_origin as DissatisfactionOrigin | null;
  return {
    sentiment: row.sentiment as Sentiment,
    sentimentLabel: sentimentLabels[row.sentiment as Sentiment] ?? row.sentiment,
    motive: row.motive as ConsultationMotive,
    motiveLabel: consultationMotiveLabels[row.motive as ConsultationMotive] ?? row.motive,
    ...(origin ? { dissatisfactionOrigin: origin, dissatisfactionOriginLabel: dissatisfactionOriginLabels[origin] ?? origin } : {}),
    category: row.category as AiCategory,
    categoryLabel: aiCategoryLabels[row.category as AiCategory] ?? row.category,
    quality: Number(row.quality),
    crossSell: { offered: row.cross_sell_offered, taken: row.cross_sell_taken },
    personalisedPromotion: row.personalised_promotion,
    engine: row.engine,
    messages: Number(row.messages),
    analyzedAt: (row.analyzed_at instanceof Date ? row.analyzed_at : new Date(row.analyzed_at)).toISOString(),
  };
}

/** The newest analysed chat of the company among those `where` picks (over `c`, the chats), or undefined. */
async function latest(db: Db, companyId: string, where: SQL): Promise<LatestAnalysis | undefined> {
  const [row] = await rowsOf<AnalysisRow>(
    db,
    sql`select ${columns} from chat_analyses a join chats c on c.id = a.chat_id and c.company_id = a.company_id
         where a.company_id = ${companyId} and ${where}
         order by a.analyzed_at desc, a.chat_id limit 1`,
  );
  return row ? { ...toView(row), chatId: row.chat_id, platform: row.platform as Platform } : undefined;
}

/** The chat's analysis (its primary key: one row at most), or undefined when never analysed. */
export async function analysisOfChat(db: Db, companyId: string, chatId: string): Promise<ChatAnalysisView | undefined> {
  const found = await latest(db, companyId, sql`a.chat_id = ${chatId}`);
  if (!found) return undefined;
  const { chatId: _chat, platform: _platform, ...analysis } = found;
  return analysis;
}

/** A lead's: the analysis of the latest analysed of its chats. */
export function analysisOfLead(db: Db, companyId: string, leadId: string): Promise<LatestAnalysis | undefined> {
  return latest(db, companyId, sql`c.lead_id = ${leadId}`);
}

/** A person's (clean lead): the latest analysed chat of any of their leads. */
export function analysisOfCleanLead(db: Db, companyId: string, cleanLeadId: string): Promise<LatestAnalysis | undefined> {
  return latest(
    db,
    companyId,
    sql`c.lead_id in (select l.id from leads l where l.company_id = ${companyId} and l.clean_lead_id = ${cleanLeadId})`,
  );
}
