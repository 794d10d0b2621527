import type { FastifyInstance } from 'fastify';
import type { StatusUpdate } from '../../integrations/meta/events.js';

/** pg-boss queues of the chat: one send of a massive message, one status the sandbox reports, a snooze's end. */
export const CHAT_SEND_QUEUE = 'chat.send';
export const SANDBOX_STATUS_QUEUE = 'chat.sandbox-status';
/** A snoozed chat's wake-up (decision 0027): it opens again when its time comes. */
export const CHAT_WAKE_QUEUE = 'chat.snooze-wake';
/** Every minute (and when a worker starts): every snoozed chat whose time has passed opens again (decision 0076). */
export const CHAT_SNOOZE_SWEEP_QUEUE = 'chat.snooze-sweep';
export interface ChatWakeJob {
  companyId: string;
  chatId: string;
}

export interface ChatSendJob {
  companyId: string;
  chatId: string;
  text: string;
  sentBy: string;
  /** Decided when queued: a retried job finds its message instead of sending twice. */
  messageId: string;
  logId?: string;
}
export interface SandboxStatusJob {
  companyId: string;
  providerMessageId: string;
  status: StatusUpdate['status'];
  error?: string;
}

/**
 * The chats module's jobs, on the routes plugin's chat service (service.ts): given here rather
 * than built, since the service queues these jobs by this file's names.
 */
export async function chatJobs(
  app: FastifyInstance,
  {
    service,
  }: {
    service: {
      runSendJob(job: ChatSendJob): Promise<void>;
      applyStatus(job: SandboxStatusJob): Promise<void>;
      wake(companyId?: string, chatId?: string): Promise<number>;
    };
  },
) {
  app.jobs.define<ChatSendJob>(CHAT_SEND_QUEUE, (job) => service.runSendJob(job));
  app.jobs.define<SandboxStatusJob>(SANDBOX_STATUS_QUEUE, (job) => service.applyStatus(job));
  app.jobs.define<ChatWakeJob>(CHAT_WAKE_QUEUE, async (job) => {
    await service.wake(job.companyId, job.chatId);
  });
  app.jobs.define<Record<string, never>>(
    CHAT_SNOOZE_SWEEP_QUEUE,
    async () => {
      const woken = await service.wake();
      if (woken) app.log.info({ woken }, 'chats pospuestos vencidos abiertos de nuevo');
    },
    { expireInSeconds: 60 },
  );
  app.jobs.every(CHAT_SNOOZE_SWEEP_QUEUE);
}
