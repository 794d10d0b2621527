import {
  authQuery,
  authResponse,
  permissionsResponse,
  forgotInput,
  loginInput,
  loginResponse,
  resetInput,
  successMessages,
  type Action,
  type Module,
} from '@mostrador/contract';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originSql } from '../../db/audit.js';
import { corporations, memberships, passwordResets, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import { admitForgot, admitLogin } from './rate-limit.js';
import { SESSION_COOKIE } from './session.js';
import { hashSecret, newSecret } from '../../lib/tokens.js';

const okMessage = z.object({ status: z.literal(200), msg: z.string() });
const RESET_TTL_MS = 60 * 60 * 1000;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  /** The account a login or reset names: an e-mail within a corporation. */
  async function findAccount(corporation: string, email: string) {
    const [user] = await db
      .select({ id: users.id, firstName: users.firstName, passwordHash: users.passwordHash, disabled: users.disabled })
      .from(users)
      .innerJoin(corporations, eq(corporations.id, users.corporationId))
      .where(and(eq(corporations.slug, corporation), eq(users.email, email)));
    return user;
  }

  /**
   * A sign-in is the corporation's, the audit log the company's (decision 0072): one row in each
   * company the account belongs to, in one statement, naming the account as the actor. A name
   * that is no account of the corporation is left to the login limiter.
   */
  async function signInAudit(userId: string, action: 'sign_in' | 'sign_in_failed', changes: Record<string, unknown> = {}) {
    await db.execute(
      sql`insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
          select m.company_id, ${originSql({ type: 'user', id: userId })}, ${action}, 'users', ${userId}, ${JSON.stringify(changes)}::jsonb
            from memberships m where m.user_id = ${userId}`,
    );
  }

  app.post(
    '/login',
    { config: { public: true }, schema: { tags: ['auth'], body: loginInput, response: { 200: loginResponse } } },
    async (request, reply) => {
      const { email, password, corporation } = request.body;
      // counted before the password is checked (decision 0004): a failure is an attempt never given back
      const attempt = await admitLogin(app, reply, request.ip, corporation, email);
      const user = await findAccount(corporation, email);
      const valid = user ? await verifyPassword(user.passwordHash, password) : await burnPasswordCheck(password).then(() => false);
      if (!user || !valid || user.disabled) {
        // an account of the corporation: the failure is in its companies' audit logs (decision 0072)
        if (user) await signInAudit(user.id, 'sign_in_failed', { reason: { from: null, to: user.disabled ? 'disabled' : 'password' } });
        throw new AppError('INVALID_CREDENTIALS');
      }
      const [{ n }] = await db.select({ n: count() }).from(memberships).where(eq(memberships.userId, user.id));
      if (Number(n) === 0) throw new AppError('FORBIDDEN', 'Tu usuario no tiene compañías asignadas. Pide acceso a un administrador');
      await attempt.succeeded();
      const session = await app.sessions.open(reply, user.id, { ip: request.ip, userAgent: request.headers['user-agent'] });
      await signInAudit(user.id, 'sign_in');
      return session.respond();
    },
  );

  app.get(
    '/token',
    { config: { public: true }, schema: { tags: ['auth'], response: { 200: loginResponse } } },
    async (request, reply) => app.sessions.refresh(reply, request.cookies[SESSION_COOKIE]),
  );

  app.post('/logout', { config: { public: true }, schema: { tags: ['auth'] } }, async (request, reply) => {
    const cookieSecret = request.cookies[SESSION_COOKIE];
    let sessionId: string | undefined;
    const header = request.headers.authorization;
    if (header?.toLowerCase().startsWith('bearer ')) {
      sessionId = await app.tokens
        .verify(header.slice(7))
        .then((c) => c.sid)
        .catch(() => undefined);
    }
    await app.sessions.revoke({ sessionId, cookieSecret });
    app.sessions.clearCookie(reply);
    return { status: 200 };
  });

  app.get(
    '/auth',
    { schema: { tags: ['auth'], querystring: authQuery, response: { 200: authResponse } } },
    async (request) => {
      const tenant = tenantOf(request);
      const allowed = await app.permissions.allows(tenant, request.query.module as Module, request.query.action as Action);
      return { allowed, role: tenant.role };
    },
  );

  app.get('/permissions', { schema: { tags: ['auth'], response: { 200: permissionsResponse } } }, async (request) => {
    const tenant = tenantOf(request);
    return { role: tenant.role, permissions: await app.permissions.matrix(tenant) };
  });

  app.post(
    '/forgot',
    { config: { public: true }, schema: { tags: ['auth'], body: forgotInput, response: { 200: okMessage } } },
    async (request, reply) => {
      const { email, corporation } = request.body;
      await admitForgot(app, reply, corporation, email);
      // the answer goes before the account is even looked up, so a real e-mail and an unknown one
      // answer alike in content and in time; the link is made and mailed after it
      reply.send({ status: 200 as const, msg: successMessages.resetSent });
      await sendResetLink(corporation, email).catch((error: unknown) => request.log.error({ err: error }, 'forgot: no se pudo preparar el correo'));
      return reply;
    },
  );

  /** Makes a reset link for the account, when it exists and is enabled, and mails it (after /forgot answered). */
  async function sendResetLink(corporation: string, email: string) {
    const user = await findAccount(corporation, email);
    if (!user || user.disabled) return;
    const { secret, hash } = newSecret();
    const link = `${app.settings.publicUrl}/restablecer-contrasena?token=${secret}`;
    const mailId = await db.transaction(async (tx) => {
      await tx.insert(passwordResets).values({ userId: user.id, tokenHash: hash, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
      return app.mailer.enqueue(tx, {
        to: email,
        subject: 'Restablece tu contraseña de Mostrador',
        text: `Hola ${user.firstName}:\n\nPara elegir una nueva contraseña abre este enlace (vence en 1 hora y sirve una sola vez):\n${link}\n\nSi no lo pediste, ignora este correo.`,
      });
    });
    await app.mailer.dispatch(mailId);
  }

  app.post(
    '/reset',
    { config: { public: true }, schema: { tags: ['auth'], body: resetInput, response: { 200: okMessage } } },
    async (request) => {
      const { token, password } = request.body;
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const [reset] = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(
            and(eq(passwordResets.tokenHash, hashSecret(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)),
          )
          .returning({ userId: passwordResets.userId });
        if (!reset) throw new AppError('RESET_TOKEN_INVALID');
        // every other link still outstanding for the user ends with this one
        await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
        await tx.update(users).set({ passwordHash }).where(eq(users.id, reset.userId));
        await app.sessions.revokeAllOf(tx, reset.userId);
      });
      return { status: 200 as const, msg: successMessages.passwordChanged };
    },
  );
};
