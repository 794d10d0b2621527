import { createHash } from 'node:crypto';
import type { FakeGraphRoute } from './meta.js';
import { mid } from './meta.js';

/**
 * A fake of Facebook's answers to page comments on the fake Graph server (fakes/meta.ts; tests
 * never reach the internet), checking what Facebook checks (decision 0049):
 *
 * - Private reply: `POST /v21.0/{page-id}/messages` with `{recipient:{comment_id}, message:{text}}`
 *   and that page's token → `{recipient_id, message_id}` (the author's PSID on the page). A wrong
 *   token is 190; a comment it does not know, or of another page, 100/33; a second private reply
 *   to the same comment 10900; a comment older than 7 days 10903; no text 100.
 * - Public reply: `POST /v21.0/{comment-id}/comments` with `{message}` → `{id}`.
 *
 * A test publishes comments here as they exist at Facebook (`publish`) and builds the page's
 * `feed` webhook of each (`feedWebhook`); `failNext` makes the next answer a Graph error.
 */
export interface FakeComment {
  pageId: string;
  postId: string;
  commentId: string;
  fromId: string;
  fromName: string;
  message: string;
  createdAt: Date;
}

export interface FakeComments {
  route: FakeGraphRoute;
  /** Comments as Facebook has them, by comment id. */
  comments: Map<string, FakeComment>;
  /** Private replies Facebook accepted: comment id → text. */
  privateReplies: Map<string, string>;
  /** Public replies accepted: comment id → texts. */
  publicReplies: Map<string, string[]>;
  /** Every private or public reply call received (accepted or not). */
  calls: Array<{ kind: 'private' | 'public'; commentId: string; authorization?: string; body: unknown }>;
  publish(c: Partial<FakeComment> & Pick<FakeComment, 'pageId' | 'postId' | 'fromId' | 'message'>): FakeComment;
  failNext(status: number, error: { message: string; code?: number; error_subcode?: number; type?: string }): void;
  /** The PSID Facebook gives the author of a comment on a page. */
  psidOf(pageId: string, fromId: string): string;
}

let seq = 0;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The page's `feed` webhook of a comment (Graph API Webhooks, Page feed: `changes[].value`). */
export function feedWebhook(c: FakeComment, verb: 'add' | 'edited' | 'remove' = 'add', extra: Record<string, unknown> = {}) {
  return {
    object: 'page',
    entry: [
      {
        id: c.pageId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'feed',
            value: {
              from: { id: c.fromId, name: c.fromName },
              post: { status_type: 'added_photos', is_published: true, updated_time: c.createdAt.toISOString(), permalink_url: `https://www.facebook.com/${c.postId.replace('_', '/posts/')}`, promotion_status: 'inactive', id: c.postId },
              message: c.message,
              post_id: c.postId,
              comment_id: c.commentId,
              created_time: Math.floor(c.createdAt.getTime() / 1000),
              item: 'comment',
              parent_id: c.postId,
              verb,
              ...extra,
            },
          },
        ],
      },
    ],
  };
}

export function fakeComments(tokens: Record<string, string>): FakeComments {
  const comments = new Map<string, FakeComment>();
  const privateReplies = new Map<string, string>();
  const publicReplies = new Map<string, string[]>();
  const calls: FakeComments['calls'] = [];
  const failures: Array<{ status: number; error: object }> = [];
  const psidOf = (pageId: string, fromId: string) => `2${BigInt(`0x${createHash('sha256').update(`${pageId}:${fromId}`).digest('hex').slice(0, 12)}`).toString().padStart(15, '0')}`;

  const route: FakeGraphRoute = ({ method, path, body, headers }, { json, graphError }) => {
    if (method !== 'POST') return false;
    const send = path.match(/^\/v21\.0\/(\d+)\/messages$/);
    const b = body as { recipient?: { comment_id?: string; id?: string }; message?: { text?: string } } | undefined;
    const isPrivate = !!send && !!b?.recipient?.comment_id;
    const pub = path.match(/^\/v21\.0\/(\d+_\d+)\/comments$/);
    if (!isPrivate && !pub) return false;
    const commentId = isPrivate ? String(b?.recipient?.comment_id) : decodeURIComponent(pub?.[1] ?? '');
    calls.push({ kind: isPrivate ? 'private' : 'public', commentId, authorization: headers.authorization as string | undefined, body });
    const failure = failures.shift();
    if (failure) {
      graphError(failure.status, failure.error);
      return true;
    }
    const comment = comments.get(commentId);
    const pageId = isPrivate ? (send?.[1] ?? '') : comment?.pageId ?? '';
    if (headers.authorization !== `Bearer ${tokens[pageId] ?? '-'}`) {
      graphError(401, { message: 'Error validating access token: Session has expired', code: 190, error_subcode: 463 });
      return true;
    }
    if (!comment || comment.pageId !== pageId) {
      graphError(400, { message: `Unsupported post request. Object with ID '${commentId}' does not exist`, type: 'GraphMethodException', code: 100, error_subcode: 33 });
      return true;
    }
    if (isPrivate) {
      const text = b?.message?.text;
      if (!text?.trim()) {
        graphError(400, { message: '(#100) Param message must be non-empty', code: 100 });
        return true;
      }
      if (privateReplies.has(commentId)) {
        graphError(400, { message: '(#10900) Activity already replied to', code: 10900 });
        return true;
      }
      if (Date.now() - comment.createdAt.getTime() > 7 * DAY_MS) {
        graphError(400, { message: '(#10903) This activity can’t be replied to', code: 10903 });
        return true;
      }
      privateReplies.set(commentId, text);
      json(200, { recipient_id: psidOf(pageId, comment.fromId), message_id: mid() });
      return true;
    }
    const message = (body as { message?: string } | undefined)?.message;
    if (!message?.trim()) {
      graphError(400, { message: '(#100) Missing message or attachment', code: 100 });
      return true;
    }
    publicReplies.set(commentId, [...(publicReplies.get(commentId) ?? []), message]);
    json(200, { id: `${commentId.split('_')[0]}_${9_000_000 + seq++}` });
    return true;
  };

  return {
    route,
    comments,
    privateReplies,
    publicReplies,
    calls,
    psidOf,
    publish(c) {
      const postPart = c.postId.split('_')[1] ?? c.postId;
      const comment: FakeComment = {
        commentId: c.commentId ?? `${postPart}_${String(Date.now()).slice(-7)}${String(seq++).padStart(4, '0')}`,
        fromName: c.fromName ?? 'Cliente de Facebook',
        createdAt: c.createdAt ?? new Date(),
        ...c,
      } as FakeComment;
      comments.set(comment.commentId, comment);
      return comment;
    },
    failNext(status, error) {
      failures.push({ status, error });
    },
  };
}
