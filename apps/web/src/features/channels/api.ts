import { type Channel, type ChannelKind, type channelList, type MetaChannelInput, type PageTestOut, successMessages, type WhatsappChannelInput } from '@mostrador/contract';
import type { z } from 'zod';
import { api } from '../../lib/api-client';

export type ChannelList = z.infer<typeof channelList>;

/** The company's channel settings (apps/server/src/modules/channels/routes.ts). */
export const channelsApi = {
  list: () => api.get<ChannelList>('/channels', { overlay: false }),
  saveWhatsapp: (body: WhatsappChannelInput) => api.put<Channel>('/channels/whatsapp', body, { success: successMessages.updated }),
  saveMeta: (body: MetaChannelInput) => api.put<ChannelList>('/channels/meta', body, { success: successMessages.updated }),
  /** «Probar conexión» of the Facebook page: its stored token asked to Graph. */
  testMeta: () => api.post<PageTestOut>('/channels/meta/test', undefined, { overlay: false }),
  disconnect: (kind: ChannelKind) => api.delete<{ status: number; kind: ChannelKind }>(`/channels/${kind}`, { success: successMessages.deleted }),
};
