import { registerCorporationInput, registrationTokenInfo, successMessages } from '@mostrador/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { corporations, registrationTokens } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/tokens.js';
import { createCorporation } from './service.js';

const liveToken = (token: string) =>
  and(eq(registrationTokens.tokenHash, hashSecret(token)), isNull(registrationTokens.usedAt), gt(registrationTokens.expiresAt, sql`now()`));

/** Public corporation registration with a one-time link made by `npm run invite`. */
export const corporationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    '/register/corporation/:token',
    {
      config: { public: true },
      schema: { tags: ['corporations'], params: z.object({ token: z.string().max(200) }), response: { 200: registrationTokenInfo } },
    },
    async (request) => {
      const [row] = await db.select({ expiresAt: registrationTokens.expiresAt }).from(registrationTokens).where(liveToken(request.params.token));
      if (!row) throw new AppError('REGISTRATION_TOKEN_INVALID');
      return { valid: true as const, expiresAt: row.expiresAt.toISOString() };
    },
  );

  app.post(
    '/register/corporation',
    {
      config: { public: true },
      schema: {
        tags: ['corporations'],
        body: registerCorporationInput,
        response: { 201: z.object({ status: z.literal(201), msg: z.string(), corporation: z.object({ slug: z.string() }) }) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      await db.transaction(async (tx) => {
        const [token] = await tx
          .update(registrationTokens)
          .set({ usedAt: new Date() })
          .where(liveToken(b.token))
          .returning({ id: registrationTokens.id });
        if (!token) throw new AppError('REGISTRATION_TOKEN_INVALID');
        const [taken] = await tx.select({ id: corporations.id }).from(corporations).where(eq(corporations.slug, b.corporation));
        if (taken) {
          throw new AppError('CONFLICT', 'Ya existe una corporación con ese identificador', [
            { path: 'corporation', msg: 'Este identificador ya está en uso' },
          ]);
        }
        const { corporation } = await createCorporation(tx, {
          slug: b.corporation,
          name: b.corporationName,
          companies: [{ name: b.companyName }],
          users: [
            {
              email: b.email,
              first_name: b.first_name,
              last_name: b.last_name,
              password: b.password,
              role: 'admin',
              companies: [b.companyName],
            },
          ],
        });
        await tx.update(registrationTokens).set({ corporationId: corporation.id }).where(eq(registrationTokens.id, token.id));
      });
      return reply.status(201).send({ status: 201 as const, msg: successMessages.corporationCreated, corporation: { slug: b.corporation } });
    },
  );
};
