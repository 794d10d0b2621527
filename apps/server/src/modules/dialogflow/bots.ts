import { type BotPlatform, botHandoffWords } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { createDialogflowClient, type DetectIntentResult, type DialogflowClient, DialogflowError, dialogflowReasons, type FetchLike, GOOGLE_TOKEN_URL, type ServiceAccount } from '../../integrations/dialogflow/client.js';
import { isSandboxProject, sandboxDetectIntent } from '../../integrations/dialogflow/sandbox.js';
import type { SecretBox } from '../../lib/secret-box.js';

/** Where and how Dialogflow is called; the server sets the URLs from its settings, tests shorten the waits. */
export const dialogflowDefaults: { apiUrl: string; tokenUrl: string; timeoutMs: number; retries: number; backoffMs: number; fetch?: FetchLike } = {
  apiUrl: 'https://dialogflow.googleapis.com',
  tokenUrl: GOOGLE_TOKEN_URL,
  timeoutMs: 10_000,
  retries: 2,
  backoffMs: 500,
};

let cached: { key: string; client: DialogflowClient } | undefined;
/** One client (and its token cache) per process, made again when the settings change. */
function client(): DialogflowClient {
  const { fetch, ...rest } = dialogflowDefaults;
  const key = JSON.stringify(rest) + (fetch ? ':f' : '');
  if (cached?.key !== key) cached = { key, client: createDialogflowClient({ ...rest, fetch }) };
  return cached.client;
}

export interface BotRow extends Record<string, unknown> {
  id: string;
  company_id: string;
  name: string;
  platform: BotPlatform;
  dialogflow_project_id: string | null;
  language: string;
  active: boolean | null;
  credentials: string | null;
}

const botColumns = sql`b.id, b.company_id, b.name, b.platform, b.dialogflow_project_id, b.language, b.active, b.credentials`;

/** Answers now: active (absent = active), a project, and a service account or the sandbox (SQL over `b`). */
export const readySql = sql`b.active is not false and coalesce(b.dialogflow_project_id, '') <> ''
  and (b.dialogflow_project_id like 'sandbox:%' or b.credentials is not null)`;

/** Why a bot does not answer, or undefined when it does. */
export function notReadyReason(bot: Pick<BotRow, 'active' | 'dialogflow_project_id' | 'credentials'>): string | undefined {
  if (bot.active === false) return 'Está desactivado';
  if (!bot.dialogflow_project_id) return dialogflowReasons.noProject;
  if (!isSandboxProject(bot.dialogflow_project_id) && !bot.credentials) return dialogflowReasons.noAccount;
  return undefined;
}

export async function loadBot(db: Db, companyId: string, botId: string): Promise<BotRow | undefined> {
  const [bot] = await rowsOf<BotRow>(db, sql`select ${botColumns} from bots b where b.company_id = ${companyId} and b.id = ${botId}`);
  return bot;
}

/** The bot that answers a platform's chats: the first ready one by name. */
export async function botForPlatform(db: Db, companyId: string, platform: string): Promise<BotRow | undefined> {
  const [bot] = await rowsOf<BotRow>(
    db,
    sql`select ${botColumns} from bots b where b.company_id = ${companyId} and b.platform = ${platform} and ${readySql} order by b.name, b.id limit 1`,
  );
  return bot;
}

/**
 * Whether a bot takes this chat's messages: a ready bot for its platform, the chat never handed
 * over, its lead held by no agent, and no person of the company has written in it.
 */
export async function botTakes(db: Db, companyId: string, chatId: string): Promise<boolean> {
  const [row] = await rowsOf(
    db,
    sql`select 1 from chats c
        left join leads l on l.company_id = c.company_id and l.id = c.lead_id
        where c.company_id = ${companyId} and c.id = ${chatId} and l.agente_id is null
          and exists (select 1 from bots b where b.company_id = c.company_id and b.platform = c.platform and ${readySql})
          and not exists (select 1 from bot_chats bc where bc.chat_id = c.id and bc.state = 'handed_over')
          and not exists (select 1 from chat_messages o where o.company_id = c.company_id and o.chat_id = c.id
                            and o.direction = 'out' and o.sent_by is not null and o.kind <> 'note')`,
  );
  return Boolean(row);
}

/** Asks the bot's agent: the sandbox in-process, else Dialogflow with the sealed service account. */
export async function ask(bot: BotRow, secrets: Pick<SecretBox, 'open'>, sessionId: string, text: string): Promise<DetectIntentResult> {
  const projectId = bot.dialogflow_project_id ?? '';
  const languageCode = bot.language || 'es';
  if (isSandboxProject(projectId)) return sandboxDetectIntent({ projectId, text, languageCode });
  if (!projectId) throw new DialogflowError('bad_request', dialogflowReasons.noProject);
  if (!bot.credentials) throw new DialogflowError('credentials', dialogflowReasons.noAccount);
  let account: ServiceAccount;
  try {
    account = secrets.open<ServiceAccount>(bot.credentials);
  } catch {
    throw new DialogflowError('credentials', 'La cuenta de servicio se guardó con otra clave del servidor (SECRETS_KEY): vuelve a guardarla');
  }
  return client().detectIntent({ projectId, account, sessionId, text, languageCode });
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
const handoffPatterns = botHandoffWords.map((w) => ({ word: w, re: new RegExp(`(^|[^\\p{L}\\p{N}])${fold(w)}($|[^\\p{L}\\p{N}])`, 'u') }));
/** The handoff word the customer wrote, if any. */
export const handoffWordIn = (text: string) => handoffPatterns.find((p) => p.re.test(fold(text)))?.word;

/** Records what the last test or answer found of the bot's connection. */
export async function recordConnection(db: Db, bot: Pick<BotRow, 'id' | 'company_id'>, state: 'ok' | 'failed', message: string) {
  await db.execute(sql`insert into bot_connections (bot_id, company_id, state, message, tested_at) values (${bot.id}, ${bot.company_id}, ${state}, ${message.slice(0, 1000)}, now())
      on conflict (bot_id) do update set state = excluded.state, message = excluded.message, tested_at = excluded.tested_at`);
}
