import type { DomainEvent } from '@mostrador/contract';
import type { Db } from '../../db/database.js';
import { attributeChats, attributeOrders, chatsWithoutConversation, noteAnswers, noteAssignments, settingsOf } from './attribute.js';

/**
 * The spine listener `attribution` (spine/listeners.ts): a round's events grouped per company —
 * orders (created, paid, status changed) attributed again, each with the last of its events'
 * ids; the chats a customer wrote in that have no conversation yet given one; the chats a person
 * of the team wrote in given their first answer; the chats reassigned their agent. Every write
 * is an upsert or an update from the tables' state, so an event applied twice changes nothing.
 */
export async function attributeFromEvents(db: Db, events: DomainEvent[]): Promise<void> {
  const byCompany = new Map<string, DomainEvent[]>();
  for (const e of events) byCompany.set(e.companyId, [...(byCompany.get(e.companyId) ?? []), e]);
  for (const [companyId, list] of byCompany) {
    const orders = new Map<string, string>();
    const received = new Set<string>();
    const answered = new Set<string>();
    const assigned = new Set<string>();
    for (const e of list) {
      const p = e.payload as { orderId?: string; chatId?: string; sentBy?: string | null };
      if (e.type.startsWith('order.') && p.orderId) orders.set(p.orderId, e.id);
      else if (e.type === 'message.received' && p.chatId) received.add(p.chatId);
      else if (e.type === 'message.sent' && p.chatId && p.sentBy) answered.add(p.chatId);
      else if (e.type === 'chat.assigned' && p.chatId) assigned.add(p.chatId);
    }
    const setting = await settingsOf(db, companyId);
    const starting = await chatsWithoutConversation(db, companyId, [...received]);
    if (starting.length) await attributeChats(db, companyId, starting, setting);
    await noteAnswers(db, companyId, [...answered]);
    await noteAssignments(db, companyId, [...assigned]);
    // per event id (the last of each order's in the round): one statement per distinct id
    const byEvent = new Map<string, string[]>();
    for (const [orderId, eventId] of orders) byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), orderId]);
    for (const [eventId, ids] of byEvent) await attributeOrders(db, companyId, ids, eventId, setting);
  }
}
