import {
  telegramExecuteOut,
  telegramExecutionsOut,
  telegramGroupCheckIn,
  telegramGroupCheckOut,
  telegramSettingsIn,
  telegramSettingsOut,
  telegramTestOut,
  zId,
} from '@mostrador/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditSettings } from '../../db/audit.js';
import { telegramGroupsTable } from '../../db/resource-tables.js';
import { telegramExecutions, telegramSettings } from '../../db/telegram-tables.js';
import { onRemoval } from '../../resources/crud.js';
import { getChat, getMe, TelegramError } from '../../integrations/telegram/client.js';
import { isSandboxToken } from '../../integrations/telegram/sandbox.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { executeRoutine, executionsOf, routineOf, settingsOf } from './executions.js';
import { telegramJobs } from './jobs.js';

const idParams = z.object({ id: zId() });

// a routine's log goes with it
onRemoval('telegram-routines', {
  within: async (tx, companyId, row) => {
    await tx.delete(telegramExecutions).where(and(eq(telegramExecutions.companyId, companyId), eq(telegramExecutions.routineId, row.id as string)));
  },
});
const noBot = 'No hay bot de Telegram configurado: guarda primero su token';

/**
 * Telegram (SPEC §2, §7 telegram-routines; issue 13, decision 0040): the company's bot (token
 * sealed, never answered), getMe / getChat checks, POST /telegram-routines/{id}/execute and the
 * per-minute schedule, and each routine's last executions with the outcome per group.
 */
export const telegramRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(telegramJobs);

  const tags = ['telegram'];
  const settingsOutOf = (row: Awaited<ReturnType<typeof settingsOf>>) =>
    row
      ? {
          configured: true,
          tokenHint: row.tokenHint,
          sandbox: row.tokenHint.startsWith('sandbox'),
          ...(row.botUsername ? { botUsername: row.botUsername } : {}),
          ...(row.botName ? { botName: row.botName } : {}),
          updatedAt: row.updatedAt.toISOString(),
        }
      : { configured: false };

  app.get('/telegram/settings', { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: telegramSettingsOut } } }, async (request) =>
    settingsOutOf(await settingsOf(db, tenantOf(request).companyId)),
  );

  app.put(
    '/telegram/settings',
    { config: { permission: { module: 'integrations', action: 'update' } }, schema: { tags, body: telegramSettingsIn, response: { 200: telegramSettingsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { token } = request.body;
      // the token is tried before it is kept: a wrong one is said now, not at the first routine
      let me: Awaited<ReturnType<typeof getMe>>;
      try {
        me = await getMe(token);
      } catch (error) {
        if (error instanceof TelegramError) throw new AppError('VALIDATION', error.msg, [{ path: 'token', msg: error.msg }]);
        throw error;
      }
      const values = {
        token: app.secrets.seal(token),
        tokenHint: isSandboxToken(token) ? `sandbox…${token.slice(-4)}` : `…${token.slice(-4)}`,
        botUsername: me.username ?? null,
        botName: me.first_name,
        updatedAt: new Date(),
      };
      // the bot and its audit entry in one transaction, the token masked (decision 0072)
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(telegramSettings).where(eq(telegramSettings.companyId, companyId)).for('update');
        const [after] = await tx.insert(telegramSettings).values({ companyId, ...values }).onConflictDoUpdate({ target: telegramSettings.companyId, set: values }).returning();
        await auditSettings(tx, { companyId, entity: 'telegram_settings', entityId: companyId, before, after, secrets: ['token'], skip: ['tokenHint'] });
      });
      return settingsOutOf(await settingsOf(db, companyId));
    },
  );

  app.delete('/telegram/settings', { config: { permission: { module: 'integrations', action: 'delete' } }, schema: { tags, response: { 200: z.object({ msg: z.string() }) } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const gone = await db.transaction(async (tx) => {
      const rows = await tx.delete(telegramSettings).where(eq(telegramSettings.companyId, companyId)).returning();
      for (const before of rows) await auditSettings(tx, { companyId, entity: 'telegram_settings', entityId: companyId, before, after: null, secrets: ['token'], skip: ['tokenHint'] });
      return rows;
    });
    if (!gone.length) throw new AppError('NOT_FOUND', noBot);
    return { msg: 'Bot de Telegram eliminado' };
  });

  app.post('/telegram/settings/test', { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: telegramTestOut } } }, async (request) => {
    const settings = await settingsOf(db, tenantOf(request).companyId);
    if (!settings) throw new AppError('NOT_FOUND', noBot);
    try {
      const me = await getMe(app.secrets.open<string>(settings.token));
      const sandbox = isSandboxToken(app.secrets.open<string>(settings.token)) ? ' (sandbox: los mensajes no salen a Telegram)' : '';
      return { ok: true, msg: `Conexión correcta con Telegram: el bot es @${me.username}${sandbox}` };
    } catch (error) {
      if (error instanceof TelegramError) return { ok: false, msg: error.msg };
      throw error;
    }
  });

  app.post(
    '/telegram/groups/check',
    { config: { permission: { module: 'messaging', action: 'create' } }, schema: { tags, body: telegramGroupCheckIn, response: { 200: telegramGroupCheckOut } } },
    async (request) => {
      const settings = await settingsOf(db, tenantOf(request).companyId);
      if (!settings) throw new AppError('VALIDATION', noBot, [{ path: 'chatId', msg: noBot }]);
      try {
        const chat = await getChat(app.secrets.open<string>(settings.token), request.body.chatId);
        return { chatId: String(chat.id), title: chat.title, type: chat.type, ...(chat.username ? { username: chat.username } : {}) };
      } catch (error) {
        if (error instanceof TelegramError) throw new AppError('VALIDATION', error.msg, [{ path: 'chatId', msg: error.msg }]);
        throw error;
      }
    },
  );

  // a saved group asked again: its title and type as Telegram has them now, kept on the group
  app.post(
    '/telegram-groups/:id/check',
    { config: { permission: { module: 'messaging', action: 'update' } }, schema: { tags: ['telegram-groups'], params: idParams, response: { 200: telegramGroupCheckOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const where = and(eq(telegramGroupsTable.companyId, companyId), eq(telegramGroupsTable.id, request.params.id));
      const [group] = await db.select().from(telegramGroupsTable).where(where);
      if (!group) throw new AppError('NOT_FOUND', 'El grupo de Telegram no existe');
      const settings = await settingsOf(db, companyId);
      if (!settings) throw new AppError('VALIDATION', noBot);
      try {
        const chat = await getChat(app.secrets.open<string>(settings.token), String(group.chatId));
        await db.update(telegramGroupsTable).set({ title: chat.title, type: chat.type, updatedAt: new Date() }).where(where);
        return { chatId: String(chat.id), title: chat.title, type: chat.type, ...(chat.username ? { username: chat.username } : {}) };
      } catch (error) {
        if (error instanceof TelegramError) throw new AppError('VALIDATION', error.msg);
        throw error;
      }
    },
  );

  const routineTags = ['telegram-routines'];
  app.post(
    '/telegram-routines/:id/execute',
    { config: { permission: { module: 'messaging', action: 'update' } }, schema: { tags: routineTags, params: idParams, response: { 200: telegramExecuteOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const routine = await routineOf(db, companyId, request.params.id);
      if (!(await settingsOf(db, companyId))) throw new AppError('VALIDATION', noBot);
      const execution = await executeRoutine(db, app.secrets, companyId, routine, { trigger: 'manual' });
      if (!execution) throw new AppError('CONFLICT', 'La rutina ya se está ejecutando');
      if (execution.status === 'failed') {
        throw new AppError('PROVIDER_ERROR', `No se pudo publicar la rutina en ningún grupo: ${execution.results[0]?.error ?? 'sin grupos'}`);
      }
      return { msg: 'Rutina ejecutada con éxito', execution };
    },
  );

  app.get(
    '/telegram-routines/:id/executions',
    { config: { permission: { module: 'messaging', action: 'read' } }, schema: { tags: routineTags, params: idParams, response: { 200: telegramExecutionsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      await routineOf(db, companyId, request.params.id);
      return { payload: await executionsOf(db, companyId, request.params.id) };
    },
  );
};
