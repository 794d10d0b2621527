import type { NotificationList, NotificationOut } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** The caller's notices (apps/server/src/modules/notifications, decision 0075). */
export const notificationsApi = {
  // polled and refreshed in the background: a failure shows nothing (the bell keeps what it had)
  list: () => api.get<NotificationList>('/notifications', { overlay: false, notify: false }),
  read: (id: string) => api.post<NotificationOut>(`/notifications/${encodeURIComponent(id)}/read`, undefined, { overlay: false }),
  readAll: () => api.post<{ updated: number }>('/notifications/read-all', undefined, { overlay: false }),
};
