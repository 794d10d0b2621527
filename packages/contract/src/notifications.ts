import { z } from 'zod';

/**
 * In-product notices (issue 28, decision 0075): what the product tells a person of their
 * company, under the bell of the header. One per person and event (the spine's `notifications`
 * listener writes them); read by their own person only.
 *
 *   GET  /notifications                  notificationList (newest first, with the unread count)
 *   POST /notifications/{id}/read        notificationOut (marked read)
 *   POST /notifications/read-all         { updated }
 */

/** What a notice is about (the domain event it comes from). */
export const notificationKinds = ['webhook_subscription.paused'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** How many notices the bell lists (the newest). */
export const NOTIFICATIONS_SHOWN = 30;

export const notificationOut = z.object({
  _id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** Where in the product it is dealt with (`/configuracion/webhooks`). */
  link: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationOut = z.infer<typeof notificationOut>;

export const notificationList = z.object({
  payload: z.array(notificationOut),
  /** The caller's unread notices in this company (all of them, not only those listed). */
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

export const notificationsReadAll = z.object({ updated: z.number().int() });
