import type { FastifyInstance } from 'fastify';
import { autoReply } from '../assistant/suggestion.js';
import { createChatService } from '../chats/service.js';
import { createNotificationService } from '../notifications/service.js';
import { createTemplateService } from '../whatsapp-templates/service.js';
import type { EngineDeps } from './engine.js';

/**
 * What the rules act with, made once per app: the spine's `automation` listener and the
 * `automation.timers` job share it. A rule's text or template goes through the chat service's send
 * (the channel's client, the window's rule, a stable id so a retried run sends once).
 */
export function engineDepsOf(app: FastifyInstance): EngineDeps {
  const { db } = app.database;
  let chats: ReturnType<typeof createChatService> | undefined;
  let templates: ReturnType<typeof createTemplateService> | undefined;
  const chatService = () => {
    chats ??= createChatService({ db, secrets: app.secrets, realtime: app.realtime, jobs: app.jobs, config: app.settings, log: app.log });
    return chats;
  };
  const notices = createNotificationService(app.database, app.realtime);
  return {
    db,
    notifyAgent: (companyId, agentId, notice, id) => notices.toAgent(companyId, agentId, notice, id),
    jobs: app.jobs,
    realtime: app.realtime,
    log: app.log,
    webhookTimeoutMs: app.settings.webhooks.timeoutSeconds * 1000,
    replyFor: async (companyId, text, contactName) => (await autoReply(db, companyId, text, contactName))?.draft,
    sendText: async (companyId, chatId, text, messageId) => {
      await chatService().send(companyId, chatId, { kind: 'text', text }, { messageId });
    },
    // as the composer's «Plantilla» does (modules/chats/template-routes.ts): approved, of the chat's line, its values checked
    sendTemplate: async (companyId, chatId, input, messageId) => {
      templates ??= createTemplateService({ db, secrets: app.secrets, config: app.settings });
      const prepared = await templates.prepareSend(companyId, input);
      await chatService().send(companyId, chatId, { kind: 'text', text: prepared.text, template: prepared.payload }, { messageId });
    },
  };
}
