import { type OwnedResource, ownedRows, resources } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { settleAuth } from './auth.js';
import { hiddenMessage, isOwned, ownerOf, visibleIds } from '../resources/owned-rows.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ownedKeys = Object.keys(ownedRows) as OwnedResource[];

/** Every parameter name that names an owned row (contract `ownedRows[…].params`), with its resource. */
const namedBy = new Map<string, OwnedResource>(ownedKeys.flatMap((key) => ownedRows[key].params.map((p) => [p, key] as const)));

/** Whether a request names a row by `:id`, `messageId` or a parameter of `ownedRows` (then its scope is checked). */
function namesRows(request: FastifyRequest, url: string): boolean {
  const params = (request.params ?? {}) as Record<string, unknown>;
  if ((pathResource(url) && params.id !== undefined) || params.messageId !== undefined) return true;
  return [params, request.query, request.body].some(
    (source) => source && typeof source === 'object' && Object.keys(source as object).some((name) => namedBy.has(name)),
  );
}

/** A route's `:id` names a record of the resource whose path it follows (`/api/chats/:id/messages` → chats). */
function pathResource(url: string): OwnedResource | undefined {
  return ownedKeys.find((key) => url === `/api/${resources[key].path}/:id` || url.startsWith(`/api/${resources[key].path}/:id/`));
}

/** The uuids a value holds (one, or a list), leaving anything else to the route's own validation. */
const idsIn = (value: unknown): string[] => [value].flat().filter((v): v is string => typeof v === 'string' && uuid.test(v));

/**
 * Row scope of requests that NAME owned rows (decision 0026), declared once in the contract and
 * checked here for every route: a caller who sees only their own and the unassigned leads and
 * chats gets a Spanish 404 for a request naming another agent's — by `:id` under the resource's
 * path, or by a parameter in the path, query or body (`leadId`, `chatIds`…), or a chat message
 * (`messageId`: its chat). Lists are scoped by the repository and the inbox themselves.
 * Callers who see every row (`<module>.all`) pay nothing here.
 */
export const rowScopePlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const url = request.routeOptions.url;
    // a check deferred to the handler's statement (decision 0036) is read now when the request names a row
    if (request.pendingAuth && url && namesRows(request, url)) await settleAuth(request);
    const tenant = request.tenant;
    if (!tenant || !url?.startsWith('/api')) return;
    if (ownedKeys.every((key) => ownerOf(key, tenant) === undefined)) return;

    const named = new Map<OwnedResource, Set<string>>();
    const add = (key: OwnedResource, ids: string[]) => {
      if (!ids.length || ownerOf(key, tenant) === undefined) return;
      const set = named.get(key) ?? new Set<string>();
      for (const id of ids) set.add(id);
      named.set(key, set);
    };
    const params = (request.params ?? {}) as Record<string, unknown>;
    const byPath = pathResource(url);
    if (byPath) add(byPath, idsIn(params.id));
    for (const source of [params, request.query, request.body]) {
      if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
      for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
        const key = namedBy.get(name);
        if (key) add(key, idsIn(value));
      }
    }
    // a message names its chat
    const messageIds = idsIn(params.messageId);
    if (messageIds.length && isOwned('chats') && ownerOf('chats', tenant) !== undefined) {
      const { rows } = await app.database.db.execute<{ chat_id: string }>(
        sql`select chat_id from chat_messages where company_id = ${tenant.companyId} and id = ${messageIds[0]}::uuid`,
      );
      add('chats', rows.map((r) => r.chat_id));
    }

    for (const [key, ids] of named) {
      const visible = await visibleIds(app.database.db, tenant, key, [...ids]);
      if ([...ids].some((id) => !visible.has(id))) throw new AppError('NOT_FOUND', hiddenMessage(key));
    }
  });
});
