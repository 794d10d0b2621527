import { type DomainEvent, domainEventTypes } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, rowsOf } from '../db/database.js';
import { wakeAnalysis } from '../modules/analysis/jobs.js';
import { attributeFromEvents } from '../modules/attribution/listener.js';
import { CONVERSIONS_SEND_QUEUE } from '../modules/conversions-api/jobs.js';
import { recordConversions } from '../modules/conversions-api/record.js';
import { engineDepsOf } from '../modules/automation/deps.js';
import { runRules } from '../modules/automation/engine.js';
import { sendAwayMessages } from '../modules/business-hours/away.js';
import { automationListens, setTimers } from '../modules/automation/timers.js';
import { publishChatEffect } from '../modules/chats/events.js';
import { createChatService } from '../modules/chats/service.js';
import { askForCsat, recordCsatAnswers } from '../modules/csat/surveys.js';
import { BOT_ANSWER_QUEUE } from '../modules/dialogflow/answer.js';
import { botTakes } from '../modules/dialogflow/bots.js';
import { wakeFacebookLabels } from '../modules/facebook-labels/people.js';
import { invoiceArrivals, invoicePaidOrders } from '../modules/genial/arrivals.js';
import { createNotificationService } from '../modules/notifications/service.js';
import { notePaidOrders } from '../modules/payments/chat-note.js';
import { recordTeamTimes, TEAM_METRICS_EVENTS } from '../modules/team-metrics/listener.js';
import { fanOut } from '../modules/webhook-subscriptions/fanout.js';
import type { Listener } from './dispatcher.js';

/**
 * Chats the realtime listener publishes side by side. Each publish reads the message and its chat
 * on two connections: more lanes would take the pool's connections from the webhook lanes that
 * write the messages (a burst measured slower with 8, bench/spine.ts).
 */
export const REALTIME_LANES = 2;

/** More of one send's messages than this in a round are not published one by one (campaignBursts). */
export const CAMPAIGN_BURST = 20;

/** The Conversions API's send waits this long after the first event of a burst, so the burst goes in full batches. */
const WAKE_SECONDS = 2;

/**
 * Everything that follows a domain event, in one place (decision 0068). Each listener takes the
 * types it names, in the outbox's order; what it does outside the database is keyed by the event
 * (a job's singleton key, an idempotent publish), since an event may reach it twice after a
 * crash. The automation rules, outbound webhooks and audit log of the next issues are added here.
 */
export function listenersOf(app: FastifyInstance): Listener[] {
  const { db } = app.database;
  const { realtime, jobs, settings, log } = app;
  const notices = createNotificationService(app.database, realtime);
  const rules = engineDepsOf(app);
  let chats: ReturnType<typeof createChatService> | undefined;
  const chatService = () => {
    chats ??= createChatService({ db, secrets: app.secrets, realtime, jobs, config: settings, log });
    return chats;
  };
  const listeners: Listener[] = [
    {
      // outbound webhooks (decision 0073): a delivery per event and subscription listening to it,
      // then the deliverer sends them, in order per subscription and aggregate, signed, retried
      name: 'webhooks.fanout',
      on: domainEventTypes,
      handle: async (events) => {
        if (await fanOut(app.database, events)) void app.webhookDeliverer.wake();
      },
    },
    {
      // automation rules (decision 0077): when the event, if the conditions on its chat, then the
      // actions — as the rule, once per rule and event, a chain cut at 3 rules
      name: 'automation',
      on: automationListens,
      handle: async (events) => {
        // timer rules' timers first: a rule's own message then sets (or cancels) them too
        await setTimers({ db }, events);
        await runRules(rules, events);
      },
    },
    {
      // business hours (decision 0078): a customer writing outside them gets the away message,
      // once per chat and closed period (a row keyed by the period's start, inserted before the send)
      name: 'away-message',
      on: ['message.received'],
      handle: async (events) => {
        await sendAwayMessages(rules, events);
      },
    },
    {
      // CSAT (decision 0100): a resolved WhatsApp chat of a company with the survey on gets one survey
      // per resolution (a row keyed by the chat and the event, claimed before the send), through the
      // chat's send and its 24-hour window; outside it, none, and the reason is kept
      name: 'csat.ask',
      on: ['chat.resolved'],
      handle: async (events) => {
        await askForCsat({ db, log, send: (companyId, chatId, content, messageId) => chatService().send(companyId, chatId, content, { messageId }) }, events);
      },
    },
    {
      // the customer's tap on a survey's option (button_reply / list_reply) stores the chat's score
      name: 'csat.answer',
      on: ['message.received'],
      handle: async (events) => {
        await recordCsatAnswers(db, events);
      },
    },
    {
      // what the company's open screens hear (GET /api/events), read fresh once the change has
      // committed: every chat message written, sent, moved or changed (a webhook, an agent, a
      // bot, a campaign, an order's summary), a chat resolved, snoozed or reopened (a person, a
      // rule, a batch of timers), and the catalogue's orders
      name: 'realtime',
      on: ['message.received', 'message.sent', 'message.status', 'message.updated', 'chat.resolved', 'chat.snoozed', 'chat.reopened', 'order.created', 'order.status_changed'],
      handle: async (events) => {
        const quiet = await campaignBursts(db, events);
        await inOrderPerAggregate(events, REALTIME_LANES, async (e) => {
          if (e.type === 'message.received' || e.type === 'message.sent') {
            const p = e.payload as DomainEvent<'message.received'>['payload'];
            if (quiet.has(p.messageId)) return;
            await publishChatEffect(db, realtime, e.companyId, { type: 'message.created', chatId: p.chatId, messageId: p.messageId }, log);
          } else if (e.type === 'message.status' || e.type === 'message.updated') {
            const p = e.payload as DomainEvent<'message.updated'>['payload'];
            if (quiet.has(p.messageId)) return;
            await publishChatEffect(db, realtime, e.companyId, { type: 'message.updated', chatId: p.chatId, messageId: p.messageId }, log);
          } else if (e.type === 'chat.resolved' || e.type === 'chat.snoozed' || e.type === 'chat.reopened') {
            const p = e.payload as DomainEvent<'chat.resolved'>['payload'];
            await publishChatEffect(db, realtime, e.companyId, { type: 'chat.updated', chatId: p.chatId }, log);
          } else if (e.type === 'order.created') {
            const p = e.payload as DomainEvent<'order.created'>['payload'];
            await realtime.publish(e.companyId, { type: 'order.updated', orderId: p.orderId, code: p.code, status: p.status, created: true });
          } else if (e.type === 'order.status_changed') {
            const p = e.payload as DomainEvent<'order.status_changed'>['payload'];
            await realtime.publish(e.companyId, { type: 'order.updated', orderId: p.orderId, code: p.code, status: p.status, created: false });
          }
        });
      },
    },
    {
      // how the team answers (decision 0094): each chat's conversations, the customers' waits a
      // person answered, resolutions and reopenings, in business hours and by the clock
      name: 'team-metrics',
      on: TEAM_METRICS_EVENTS,
      handle: (events) => recordTeamTimes(db, events),
    },
    {
      // a customer wrote: the company's conversation analysis is woken (debounced per company, modules/analysis)
      name: 'analysis.wake',
      on: ['message.received'],
      handle: async (events) => {
        if (!settings.analysis) return;
        for (const companyId of new Set(events.map((e) => e.companyId))) await wakeAnalysis(jobs, log, companyId, settings.analysisDebounceSeconds);
      },
    },
    {
      // a customer message in a chat a Dialogflow bot answers: its turn is a job, one per message (decision 0053)
      name: 'bots.answer',
      on: ['message.received'],
      handle: (events) =>
        inOrderPerAggregate(events, 2, async (e) => {
          if (!settings.bots) return;
          const p = e.payload as DomainEvent<'message.received'>['payload'];
          if (!(await botTakes(db, e.companyId, p.chatId))) return;
          await jobs.send(BOT_ANSWER_QUEUE, { companyId: e.companyId, chatId: p.chatId, messageId: p.messageId }, { singletonKey: p.messageId });
        }),
    },
    {
      // labels put on or taken off Messenger people: the job that puts the page's labels on them
      // (decision 0057) runs now, not at its next minute, whatever wrote the labels (a request, an import, a webhook)
      name: 'facebook-labels.wake',
      on: ['lead.created', 'lead.labelled', 'lead.unlabelled', 'person.labelled', 'person.unlabelled', 'person.merged'],
      handle: async (events) => {
        for (const companyId of new Set(events.map((e) => e.companyId))) await wakeFacebookLabels(app, companyId);
      },
    },
    {
      // an order from a store or a marketplace arrived or changed, or one of the company's own was
      // paid: the paid ones of a company that uses Genial get their invoice, issued by a job now (decision 0037)
      name: 'genial.invoices',
      on: ['store_order.arrived', 'order.paid'],
      handle: async (events) => {
        await invoiceArrivals(db, jobs, events.filter((e) => e.type === 'store_order.arrived'));
        // the company's own orders, when paid (issue 30)
        const paid = events.filter((e) => e.type === 'order.paid');
        if (paid.length) await invoicePaidOrders(db, jobs, paid);
      },
    },
    {
      // an order of a chat was paid: the agents read it in that thread, as an internal note (issue 30)
      name: 'payments.chat-note',
      on: ['order.paid'],
      handle: (events) => notePaidOrders(db, events),
    },
    {
      // attribution (decisions 0096, 0097): an order placed, paid or moved is attributed again to
      // the conversation and the ad or send before it; a customer starting a conversation gives it
      // its touch, an agent's first answer its answer time. Recomputed from the tables: a replay
      // writes the same rows
      name: 'attribution',
      on: ['order.created', 'order.paid', 'order.status_changed', 'message.received', 'message.sent', 'chat.assigned'],
      handle: (events) => attributeFromEvents(db, events),
    },
    {
      // Meta's Conversions API (decision 0098): a paid order is a Purchase, a lead moved into the
      // company's qualified status a LeadSubmitted — one row per (company, event_id), sent by a job
      name: 'conversions-api.record',
      on: ['order.paid', 'lead.status_changed'],
      handle: async (events) => {
        // one job per company and 2-second slot, started at the slot's end: a burst of payments goes
        // in full batches (bench/conversions-api.ts), and no row waits for a wake-up that was dropped
        // (a job starts after every row of its slot was written); the lease keeps two jobs apart
        for (const companyId of await recordConversions(db, events)) {
          await jobs.send(CONVERSIONS_SEND_QUEUE, { companyId }, { singletonKey: `conversions:${companyId}`, singletonSeconds: WAKE_SECONDS, startAfter: WAKE_SECONDS });
        }
      },
    },
    {
      // what the product tells people under the header's bell (decision 0075): a webhook
      // subscription that paused itself, to the company's owners and the roles with the module
      // `api`; one notice per person and event (unique), published to that person's screens
      name: 'notifications',
      on: ['webhook_subscription.paused'],
      handle: async (events) => {
        await notices.fromEvents(events);
      },
    },
  ];
  return listeners;
}

/**
 * A campaign's messages the screens are not told of one by one: when a round holds more than
 * `CAMPAIGN_BURST` of one send's messages being written or settled by the product (not a
 * provider's statuses), one event per chat would flood the inbox, which refreshes its list from the
 * send's progress instead. Answers their message ids; asks the database only for a round that
 * could hold such a burst.
 */
export async function campaignBursts(db: Db, events: DomainEvent[]): Promise<Set<string>> {
  const own = events.filter((e) => e.type === 'message.sent' || ((e.type === 'message.status' || e.type === 'message.updated') && e.actor.type !== 'provider'));
  if (own.length <= CAMPAIGN_BURST) return new Set();
  const ids = [...new Set(own.map((e) => (e.payload as { messageId: string }).messageId))];
  const rows = await rowsOf<{ id: string; send_id: string }>(db, sql`select id::text, send_id::text from send_recipients where id = any(${`{${ids.join(',')}}`}::uuid[])`);
  const bySend = new Map<string, string[]>();
  for (const r of rows) bySend.set(r.send_id, [...(bySend.get(r.send_id) ?? []), r.id]);
  return new Set([...bySend.values()].filter((group) => group.length > CAMPAIGN_BURST).flat());
}

/**
 * Runs `fn` over events keeping each aggregate's order (one after another) while different
 * aggregates run side by side, at most `limit` at once. The first error is thrown once all have
 * settled (the spine then retries event by event).
 */
export async function inOrderPerAggregate(events: DomainEvent[], limit: number, fn: (e: DomainEvent) => Promise<void>): Promise<void> {
  const groups = new Map<string, DomainEvent[]>();
  for (const e of events) {
    const key = `${e.aggregate.type}:${e.aggregate.id}`;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  const queue = [...groups.values()];
  let failure: unknown;
  const lane = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      for (const e of group) {
        try {
          await fn(e);
        } catch (error) {
          failure ??= error;
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, lane));
  if (failure) throw failure;
}
