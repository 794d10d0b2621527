import { createHash, randomBytes } from 'node:crypto';
import {
  type GoogleCallbackOutcome,
  googleCallbackMessages,
  googleConsentOut,
  googleCredentialsInput,
  googleLeadsOut,
  googleLeadsQuery,
  googleMessages,
  googlePhoneOut,
  googlePhoneParams,
  googleSyncOut,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, changesOf } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { createPeopleClient, type GoogleCredentials, GoogleError, isSandboxClient, type PeopleClient } from '../../integrations/google/people.js';
import { AppError } from '../../lib/errors.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { GOOGLE_SYNC_QUEUE, googlePeopleJobs } from './jobs.js';
import { clientIdHint, credentialsOf, loadPhone, pendingCount, phonesOut, syncOut } from './sync.js';

/** How long a consent may take between «Conectar con Google» and Google's redirect back. */
const STATE_TTL_MS = 15 * 60_000;
export const GOOGLE_CALLBACK_PATH = '/api/google-people/callback';

/** What the `state` of a consent carries, sealed (AES-GCM: nobody can read or forge it): who asked, for which phone, the PKCE verifier. */
interface ConsentState {
  c: string;
  u: string;
  t: string;
  n: string;
  v: string;
  e: number;
}

/**
 * Google contacts of the business's phones (issue 15, decision 0052). The OAuth client's id and
 * secret are kept sealed in the phone's `credenciales` and never returned; the consent's state
 * is sealed and bound to the company, the user, the phone and a one-time nonce; the callback
 * exchanges the code (PKCE) and keeps the tokens sealed; the sync is a job (sync.ts).
 */
export const googlePeopleRoutes: FastifyPluginAsyncZod<{ client?: PeopleClient; sleep?: (ms: number) => Promise<void>; backoffMs?: number }> = async (app, options) => {
  const { db } = app.database;
  const client =
    options.client ??
    createPeopleClient({ authUrl: app.settings.googleOAuthAuthUrl, tokenUrl: app.settings.googleOAuthTokenUrl, peopleUrl: app.settings.googlePeopleApiUrl });
  const tags = ['google-people'];
  const may = (action: 'read' | 'update' | 'delete') => ({ permission: { module: 'integrations' as const, action } });
  const redirectUri = `${app.settings.publicUrl}${GOOGLE_CALLBACK_PATH}`;
  const deps = {
    db,
    secrets: app.secrets,
    client,
    sleep: options.sleep,
    backoffMs: options.backoffMs,
    publish: (companyId: string, sync: z.infer<typeof googleSyncOut>) => app.realtime.publish(companyId, { type: 'google.sync', sync }),
  };

  await googlePeopleJobs(app, deps);

  async function phoneOf(tenant: Tenant, id: string) {
    const phone = await loadPhone(db, tenant.companyId, id);
    if (!phone) throw new AppError('NOT_FOUND', googleMessages.phoneMissing);
    return phone;
  }

  /** A consent URL for the phone's kept client: a new nonce replaces the last one (only the latest consent is accepted). */
  async function consentUrl(tenant: Tenant, telefonoId: string, creds: Pick<GoogleCredentials, 'clientId' | 'clientSecret'>): Promise<string> {
    const nonce = randomBytes(16).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = app.secrets.seal({ c: tenant.companyId, u: tenant.userId, t: telefonoId, n: nonce, v: verifier, e: Date.now() + STATE_TTL_MS } satisfies ConsentState);
    await db.execute(sql`insert into google_people_phones (telefono_id, company_id, state_nonce, client_id_hint) values (${telefonoId}, ${tenant.companyId}, ${nonce}, ${clientIdHint(creds.clientId)})
      on conflict (telefono_id) do update set state_nonce = excluded.state_nonce, client_id_hint = excluded.client_id_hint, updated_at = now()`);
    return client.authorizeUrl(creds, { redirectUri, state, codeChallenge: challenge });
  }

  app.get('/google-people/phones', { config: may('read'), schema: { tags, response: { 200: z.object({ payload: z.array(googlePhoneOut) }) } } }, async (request) => ({
    payload: await phonesOut(db, app.secrets, tenantOf(request).companyId),
  }));

  app.get('/google-people/phones/:id', { config: may('read'), schema: { tags, params: googlePhoneParams, response: { 200: googlePhoneOut } } }, async (request) => {
    const [out] = await phonesOut(db, app.secrets, tenantOf(request).companyId, request.params.id);
    if (!out) throw new AppError('NOT_FOUND', googleMessages.phoneMissing);
    return out;
  });

  app.get(
    '/google-people/phones/:id/leads',
    { config: may('read'), schema: { tags, params: googlePhoneParams, querystring: googleLeadsQuery, response: { 200: googleLeadsOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      await phoneOf(tenant, request.params.id);
      const { page, limit, filter: q } = request.query;
      const digits = q?.replace(/\D/g, '');
      const like = q ? `%${q.replace(/[\\%_]/g, '\\$&')}%` : '';
      const search = q ? sql`and (l.name ilike ${like} ${digits ? sql`or l.telefono like ${`%${digits}%`}` : sql``})` : sql``;
      const [{ total }] = await rowsOf<{ total: number }>(
        db,
        sql`select count(*)::int as total from leads l where l.company_id = ${tenant.companyId} and l.telefono_id = ${request.params.id} ${search}`,
      );
      const rows = await rowsOf<{ id: string; name: string; telefono: string | null; email: string | null; resource_name: string | null; problem: string | null }>(
        db,
        sql`select l.id, l.name, l.telefono, l.email, g.resource_name, g.problem
              from leads l left join google_contacts g on g.telefono_id = l.telefono_id and g.lead_id = l.id
             where l.company_id = ${tenant.companyId} and l.telefono_id = ${request.params.id} ${search}
             order by l.created_at desc, l.id desc limit ${limit} offset ${(page - 1) * limit}`,
      );
      return {
        payload: rows.map((r) => ({
          _id: r.id,
          name: r.name,
          ...(r.telefono ? { telefono: r.telefono } : {}),
          ...(r.email ? { email: r.email } : {}),
          ...(r.resource_name ? { resourceName: r.resource_name } : {}),
          ...(r.problem && !r.resource_name ? { problem: r.problem } : {}),
        })),
        total,
        page,
        totalPages: Math.max(1, Math.ceil(total / limit)),
      };
    },
  );

  // the spec's /telefonos/googlepeople/{id}/{clientId}/{clientSecret}: the page posts them here at once
  app.post(
    '/google-people/phones/:id/credentials',
    { config: may('update'), schema: { tags, params: googlePhoneParams, body: googleCredentialsInput, response: { 200: googleConsentOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const phone = await phoneOf(tenant, request.params.id);
      const { clientId, clientSecret } = request.body;
      const old = credentialsOf(app.secrets, phone.credenciales);
      // the tokens of the same OAuth client stay until a new consent replaces them; another client's are dropped
      const kept: GoogleCredentials = old?.clientId === clientId ? { ...(old as GoogleCredentials), clientId, clientSecret } : { clientId, clientSecret };
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const sealedKept = app.secrets.seal(kept);
        await t.execute(sql`update telefonos set credenciales = ${JSON.stringify(sealedKept)}::jsonb, updated_at = now() where id = ${phone.id} and company_id = ${tenant.companyId}`);
        // the OAuth client's secret masked, in the change's transaction (decision 0072)
        await audit(t, { companyId: tenant.companyId, action: 'update', entity: 'telefonos', entityId: phone.id, changes: changesOf({ credenciales: phone.credenciales }, { credenciales: sealedKept }, ['credenciales']) });
        await t.execute(sql`insert into google_people_phones (telefono_id, company_id, status, reason, client_id_hint) values (${phone.id}, ${tenant.companyId}, 'falta-autorizar', null, ${clientIdHint(clientId)})
          on conflict (telefono_id) do update set status = case when google_people_phones.status = 'conectado' and ${old?.clientId === clientId} then 'conectado' else 'falta-autorizar' end,
            reason = null, client_id_hint = excluded.client_id_hint, updated_at = now()`);
      });
      reply.header('cache-control', 'no-store');
      return { msg: googleMessages.credentialsSaved, url: await consentUrl(tenant, phone.id, kept) };
    },
  );

  app.post('/google-people/phones/:id/authorize', { config: may('update'), schema: { tags, params: googlePhoneParams, response: { 200: googleConsentOut } } }, async (request) => {
    const tenant = tenantOf(request);
    const phone = await phoneOf(tenant, request.params.id);
    const creds = credentialsOf(app.secrets, phone.credenciales);
    if (!creds?.clientId || !creds.clientSecret) throw new AppError('BAD_REQUEST', googleMessages.noCredentials);
    return { msg: 'Abriendo Google para autorizar el acceso a los contactos', url: await consentUrl(tenant, phone.id, creds as GoogleCredentials) };
  });

  app.delete('/google-people/phones/:id', { config: may('delete'), schema: { tags, params: googlePhoneParams, response: { 200: z.object({ msg: z.string() }) } } }, async (request) => {
    const tenant = tenantOf(request);
    const phone = await phoneOf(tenant, request.params.id);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await t.execute(sql`update telefonos set credenciales = null, updated_at = now() where id = ${phone.id} and company_id = ${tenant.companyId}`);
      await audit(t, { companyId: tenant.companyId, action: 'update', entity: 'telefonos', entityId: phone.id, changes: changesOf({ credenciales: phone.credenciales }, { credenciales: null }, ['credenciales']) });
      await t.execute(sql`delete from google_people_phones where telefono_id = ${phone.id} and company_id = ${tenant.companyId}`);
    });
    return { msg: googleMessages.disconnected };
  });

  app.post('/google-people/phones/:id/sync', { config: may('update'), schema: { tags, params: googlePhoneParams, response: { 202: googleSyncOut } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const [phone] = await phonesOut(db, app.secrets, tenant.companyId, request.params.id);
    if (!phone) throw new AppError('NOT_FOUND', googleMessages.phoneMissing);
    if (phone.state === 'reconectar') throw new AppError('BAD_REQUEST', phone.reason ?? googleMessages.invalidGrant);
    if (phone.state !== 'conectado') throw new AppError('BAD_REQUEST', phone.state === 'sin-conectar' ? googleMessages.noCredentials : googleMessages.notConnected);
    const sync = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await t.execute(sql`select pg_advisory_xact_lock(hashtext(${`google-sync:${phone.telefonoId}`}))`);
      // one sync of a phone at a time: pressing again answers the one that goes
      const [going] = await rowsOf<Record<string, unknown>>(
        t,
        sql`select * from google_contact_syncs where telefono_id = ${phone.telefonoId} and status in ('en-cola', 'en-curso')
              and (status = 'en-cola' or heartbeat_at > now() - interval '5 minutes') order by created_at desc limit 1`,
      );
      if (going) return { row: going, fresh: false };
      // a run that died without finishing is closed; the batch it had sent goes on to the new sync (looked up, not created again)
      await t.execute(sql`update google_contact_syncs set status = 'fallida', message = ${googleMessages.interrupted}, finished_at = now(), heartbeat_at = null
                           where telefono_id = ${phone.telefonoId} and status in ('en-cola', 'en-curso')`);
      const [carried] = await rowsOf<{ in_flight: unknown }>(
        t,
        sql`select in_flight from google_contact_syncs where telefono_id = ${phone.telefonoId} order by created_at desc, id desc limit 1`,
      );
      const inFlight = Array.isArray(carried?.in_flight) && carried.in_flight.length ? carried.in_flight : null;
      const total = await pendingCount(t, tenant.companyId, phone.telefonoId);
      const run = total > 0 || !!inFlight;
      const [row] = await rowsOf<Record<string, unknown>>(
        t,
        sql`insert into google_contact_syncs (company_id, telefono_id, total, status, message, finished_at, in_flight)
            values (${tenant.companyId}, ${phone.telefonoId}, ${total}, ${run ? 'en-cola' : 'terminada'}, ${run ? null : googleMessages.nothingToSync}, ${run ? sql`null` : sql`now()`},
                    ${inFlight ? JSON.stringify(inFlight) : null}::jsonb)
            returning *`,
      );
      if (inFlight) await t.execute(sql`update google_contact_syncs set in_flight = null where telefono_id = ${phone.telefonoId} and id <> ${row.id as string}`);
      // a sync started (or found with nothing to do), in its transaction (decision 0072)
      await audit(t, { companyId: tenant.companyId, action: 'sync', entity: 'telefonos', entityId: phone.telefonoId, changes: { sync: { from: null, to: row.id }, total: { from: null, to: total } } });
      return { row, fresh: run };
    });
    if (sync.fresh) await app.jobs.send(GOOGLE_SYNC_QUEUE, { syncId: sync.row.id as string });
    return reply.code(202).send(syncOut(sync.row as never));
  });

  /** Google sends the browser back here (public: a redirect carries no bearer token; the sealed state says who asked). */
  app.get(
    '/google-people/callback',
    {
      config: { public: true },
      schema: {
        tags,
        querystring: z.object({ code: z.string().max(2000).optional(), state: z.string().max(4000).optional(), error: z.string().max(200).optional(), scope: z.string().max(2000).optional() }).passthrough(),
      },
    },
    async (request, reply) => {
      const back = (outcome: GoogleCallbackOutcome, telefonoId?: string) =>
        reply
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-store')
          .redirect(`/telefonos?${new URLSearchParams({ google: outcome, ...(telefonoId ? { telefono: telefonoId } : {}) })}`, 302);
      const { code, state: sealed, error } = request.query;
      let state: ConsentState | undefined;
      try {
        state = sealed ? app.secrets.open<ConsentState>(sealed) : undefined;
      } catch {
        state = undefined;
      }
      if (!state || typeof state.n !== 'string' || typeof state.t !== 'string' || !(state.e > Date.now())) return back('estado-invalido');
      // the nonce is used once: a replayed or older consent is refused
      const [used] = await rowsOf<{ telefono_id: string }>(
        db,
        sql`update google_people_phones set state_nonce = null, updated_at = now()
             where telefono_id = ${state.t} and company_id = ${state.c} and state_nonce = ${state.n} returning telefono_id`,
      );
      if (!used) return back('estado-invalido');
      // the user who asked must still belong to the company
      const [member] = await rowsOf<{ ok: number }>(
        db,
        sql`select 1 as ok from memberships m join users u on u.id = m.user_id where m.user_id = ${state.u} and m.company_id = ${state.c} and not u.disabled limit 1`,
      );
      if (!member) return back('estado-invalido');
      if (error || !code) return back('cancelado', state.t);
      const phone = await loadPhone(db, state.c, state.t);
      const creds = phone ? credentialsOf(app.secrets, phone.credenciales) : undefined;
      if (!phone || !creds?.clientId || !creds.clientSecret) return back('estado-invalido');
      let exchanged: Awaited<ReturnType<PeopleClient['exchange']>>;
      try {
        exchanged = await client.exchange(creds as GoogleCredentials, { code, codeVerifier: state.v, redirectUri });
      } catch (e) {
        const outcome: GoogleCallbackOutcome = e instanceof GoogleError && (e.kind === 'reauth' || e.kind === 'refused') ? 'codigo-invalido' : 'error';
        await markReason(state.c, state.t, outcome);
        return back(outcome, state.t);
      }
      const refresh = exchanged.tokens.refresh_token ?? creds.refresh_token;
      if (!refresh) {
        await markReason(state.c, state.t, 'sin-refresh-token');
        return back('sin-refresh-token', state.t);
      }
      const next: GoogleCredentials = { clientId: creds.clientId, clientSecret: creds.clientSecret, ...exchanged.tokens, refresh_token: refresh };
      const email = exchanged.email ?? phone.google_contact_email ?? null;
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        // another Google account: the contacts made in the old one are not in this one
        if (phone.google_contact_email && email && phone.google_contact_email.toLowerCase() !== email.toLowerCase()) {
          await t.execute(sql`delete from google_contacts where telefono_id = ${phone.id} and company_id = ${state.c}`);
        }
        const sealedNext = app.secrets.seal(next);
        await t.execute(sql`update telefonos set credenciales = ${JSON.stringify(sealedNext)}::jsonb, google_contact_email = ${email}, updated_at = now()
                             where id = ${phone.id} and company_id = ${state.c}`);
        // Google's redirect carries no session: the consent is the user's who asked for it (the sealed state names them)
        await audit(t, {
          companyId: state.c,
          action: 'update',
          entity: 'telefonos',
          entityId: phone.id,
          actor: { type: 'user', id: state.u },
          changes: changesOf({ credenciales: phone.credenciales, googleContactEmail: phone.google_contact_email ?? null }, { credenciales: sealedNext, googleContactEmail: email }, ['credenciales']),
        });
        await t.execute(sql`update google_people_phones set status = 'conectado', reason = null, connected_at = now(), updated_at = now() where telefono_id = ${phone.id}`);
      });
      return back('conectado', state.t);
    },
  );

  async function markReason(companyId: string, telefonoId: string, outcome: GoogleCallbackOutcome) {
    await db.execute(sql`update google_people_phones set reason = ${googleCallbackMessages[outcome]}, updated_at = now() where telefono_id = ${telefonoId} and company_id = ${companyId}`);
  }

  /**
   * The demo's Google consent (a client id that starts with «sandbox»; no internet): it answers
   * at once as Google would after «Permitir», back to the callback on this same origin.
   */
  app.get(
    '/google-people/sandbox/consent',
    {
      config: { public: true },
      schema: {
        tags,
        querystring: z
          .object({ client_id: z.string().max(300), redirect_uri: z.string().max(2000), state: z.string().max(4000), code_challenge: z.string().max(200).optional() })
          .passthrough(),
      },
    },
    async (request, reply) => {
      const { client_id, state } = request.query;
      if (!isSandboxClient(client_id)) throw new AppError('BAD_REQUEST', 'Esta página de autorización es solo para el Google de demostración');
      const q = new URLSearchParams({ code: `sandbox-code-${randomBytes(6).toString('hex')}`, state, scope: 'openid email https://www.googleapis.com/auth/contacts' });
      return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(`${GOOGLE_CALLBACK_PATH}?${q}`, 302);
    },
  );
};
