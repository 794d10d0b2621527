import { BOT_STATUS_DAYS, type BotStatusOut, botParams, botStatusListOut, botTestIn, botTestOut } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rowsOf } from '../../db/database.js';
import { DialogflowError } from '../../integrations/dialogflow/client.js';
import { isSandboxProject } from '../../integrations/dialogflow/sandbox.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { createChatService } from '../chats/service.js';
import { createBotAnswerer } from './answer.js';
import { dialogflowJobs } from './jobs.js';
import { ask, dialogflowDefaults, loadBot, notReadyReason, recordConnection } from './bots.js';

/**
 * Dialogflow bots (issue 15, decision 0053): the answer job, each bot's connection and what it
 * did lately (GET /bots/status), and «Probar conexión» (POST /bots/:id/test). The settings are
 * the standard `bots` resource; the permissions are its module's (integrations).
 */
export const dialogflowRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['bots'];
  const may = (action: 'read' | 'update') => ({ permission: { module: 'integrations' as const, action } });
  dialogflowDefaults.apiUrl = app.settings.dialogflowApiUrl;
  dialogflowDefaults.tokenUrl = app.settings.dialogflowTokenUrl;

  const chats = createChatService({ db, secrets: app.secrets, realtime: app.realtime, jobs: app.jobs, config: app.settings, log: app.log });
  const answerer = createBotAnswerer({ db, secrets: app.secrets, chats, realtime: app.realtime, log: app.log });
  await app.register(dialogflowJobs, { answerer });

  app.get('/bots/status', { config: may('read'), schema: { tags, response: { 200: botStatusListOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const rows = await rowsOf<{
      id: string;
      active: boolean | null;
      dialogflow_project_id: string | null;
      credentials: string | null;
      state: 'ok' | 'failed' | null;
      message: string | null;
      tested_at: Date | null;
      answered: number;
      handed_over: number;
      failed: number;
      answering: number;
    }>(
      db,
      sql`select b.id, b.active, b.dialogflow_project_id, b.credentials is not null as credentials, k.state, k.message, k.tested_at,
            (select count(*) from bot_replies r where r.company_id = b.company_id and r.bot_id = b.id and r.outcome = 'answered'
               and r.created_at > now() - make_interval(days => ${BOT_STATUS_DAYS}))::int as answered,
            (select count(*) from bot_replies r where r.company_id = b.company_id and r.bot_id = b.id and r.outcome = 'handed_over'
               and r.created_at > now() - make_interval(days => ${BOT_STATUS_DAYS}))::int as handed_over,
            (select count(*) from bot_replies r where r.company_id = b.company_id and r.bot_id = b.id and r.outcome = 'failed'
               and r.created_at > now() - make_interval(days => ${BOT_STATUS_DAYS}))::int as failed,
            (select count(*) from bot_chats c where c.company_id = b.company_id and c.bot_id = b.id and c.state = 'answering')::int as answering
          from bots b left join bot_connections k on k.bot_id = b.id
          where b.company_id = ${companyId} order by b.name, b.id`,
    );
    const payload: BotStatusOut[] = rows.map((r) => {
      const reason = notReadyReason({ active: r.active, dialogflow_project_id: r.dialogflow_project_id, credentials: r.credentials ? 'set' : null });
      return {
        botId: r.id,
        connection: r.state ?? 'untested',
        connectionMsg: r.message ?? undefined,
        testedAt: r.tested_at ? new Date(r.tested_at).toISOString() : undefined,
        ready: !reason,
        notReadyReason: reason,
        sandbox: isSandboxProject(r.dialogflow_project_id),
        answered: Number(r.answered),
        handedOver: Number(r.handed_over),
        failed: Number(r.failed),
        answering: Number(r.answering),
      };
    });
    return { payload };
  });

  app.post(
    '/bots/:id/test',
    { config: may('update'), schema: { tags, params: botParams, body: botTestIn.optional(), response: { 200: botTestOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const bot = await loadBot(db, companyId, request.params.id);
      if (!bot) throw new AppError('NOT_FOUND', 'El bot no existe');
      const text = request.body?.text ?? 'Hola';
      const testedAt = new Date().toISOString();
      try {
        // a session of its own: the test never mixes with a customer's conversation
        const result = await ask(bot, app.secrets, `prueba-${bot.id}`, text);
        const intent = result.intent ?? 'sin nombre';
        const msg = result.isFallback
          ? `Conexión correcta${isSandboxProject(bot.dialogflow_project_id) ? ' (agente de prueba)' : ''}: «${text}» cayó en la intención de respaldo «${intent}» (pasaría el chat a una persona)`
          : `Conexión correcta${isSandboxProject(bot.dialogflow_project_id) ? ' (agente de prueba)' : ''}: «${text}» coincide con la intención «${intent}»`;
        await recordConnection(db, bot, 'ok', msg);
        return { ok: true, msg, intent: result.intent, fallback: result.isFallback, confidence: result.confidence, reply: result.reply || undefined, testedAt };
      } catch (error) {
        if (!(error instanceof DialogflowError)) throw error;
        await recordConnection(db, bot, 'failed', error.reason);
        return { ok: false, msg: error.reason, testedAt };
      }
    },
  );
};
