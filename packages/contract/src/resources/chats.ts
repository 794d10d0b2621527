import { platforms } from '../constants.js';
import { defineResource } from '../define-resource.js';
import { zDateTime, zEnum, zInteger, zOptionalText, zRefId, zText } from '../fields.js';

/** open; closed = resolved; snoozed until `snoozedUntil` (it opens again then, or when the customer writes; decision 0027). */
export const chatStatuses = ['open', 'closed', 'snoozed'] as const;
export type ChatStatus = (typeof chatStatuses)[number];
export const chatStatusLabels: Record<ChatStatus, string> = { open: 'Abierto', closed: 'Resuelto', snoozed: 'Pospuesto' };

/**
 * chats (SPEC §3, §7): a conversation with a person on a platform. The messages (SPEC §3: each
 * with mid and isActive) are served by the chat calls, not stored in this record. Not shown
 * in the spec: the contact's name, the platform, the lead it belongs to, open or closed, the
 * unread count and the last message's time (ISO 8601, UTC) and preview. Default sort
 * updatedAt desc: the latest conversation first.
 */
export const chats = defineResource({
  key: 'chats',
  label: 'Chat',
  labelPlural: 'Chats',
  module: 'chats',
  fields: {
    contactName: zText(120),
    platform: zEnum(platforms),
    leadId: zRefId(),
    status: zEnum(chatStatuses),
    unreadCount: zInteger(0).optional(),
    lastMessageAt: zDateTime().optional(),
    lastMessagePreview: zOptionalText(300).optional(),
    /** While status is snoozed: when the chat opens again by itself (ISO 8601, UTC). */
    snoozedUntil: zDateTime().optional(),
  },
  refs: { leadId: 'leads' },
  defaultSort: { field: 'updatedAt', order: 'desc' },
  searchable: ['contactName', 'lastMessagePreview'],
  sortable: ['contactName', 'lastMessageAt'],
  filterable: ['platform', 'status', 'leadId'],
  examples: [
    {
      contactName: 'María Fernández',
      platform: 'whatsapp',
      status: 'open',
      unreadCount: 2,
      lastMessageAt: '2025-03-14T15:31:00Z',
      lastMessagePreview: '¿Tienen delivery a Surco?',
    },
    {
      contactName: 'Luis Paredes',
      platform: 'facebook',
      status: 'open',
      unreadCount: 0,
      lastMessageAt: '2025-03-15T10:07:00Z',
      lastMessagePreview: 'Perfecto, lo paso a recoger',
    },
    { contactName: 'Rosa Quispe', platform: 'instagram', status: 'closed', lastMessageAt: '2025-03-12T20:45:00Z', lastMessagePreview: 'Gracias por su compra' },
  ],
});
