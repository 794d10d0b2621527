import type { ChatMessage } from '@mostrador/contract';
import { useEffect, useState } from 'react';
import { fetchMediaBlob } from '../api';
import { safeMediaUrl } from '../lib/media';

export interface MediaSource {
  url?: string;
  loading: boolean;
  failed: boolean;
}

/**
 * Where a message's media plays from: the provider's stored media through
 * GET /chats/media/:id (fetched with the session, shown as a blob URL, released on unmount),
 * else the link it was sent by. Links other than http(s) are never used.
 */
export function useMediaUrl(message: Pick<ChatMessage, '_id' | 'hasMedia' | 'mediaUrl'>, enabled = true): MediaSource {
  const direct = message.hasMedia ? undefined : safeMediaUrl(message.mediaUrl);
  const [state, setState] = useState<MediaSource>({ loading: message.hasMedia, failed: false });

  useEffect(() => {
    if (!message.hasMedia || !enabled || message._id.startsWith('temp-')) return;
    const controller = new AbortController();
    let objectUrl: string | undefined;
    setState({ loading: true, failed: false });
    fetchMediaBlob(message._id, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url: objectUrl, loading: false, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ loading: false, failed: true });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [message._id, message.hasMedia, enabled]);

  if (!message.hasMedia) return { url: direct, loading: false, failed: !direct && !!message.mediaUrl };
  return state;
}
