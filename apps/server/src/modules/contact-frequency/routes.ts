import {
  choiceOf,
  FREQUENCY_LINK_TTL_DAYS,
  frequencyChoiceInput,
  frequencyLink,
  frequencyPreference,
  frequencyTokenParams,
  storedOf,
  zId,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { createFrequencyLinkTokens, type FrequencyLinkClaims } from './link-token.js';

const GONE = 'El enlace ya no es válido: pide uno nuevo a la empresa';

/**
 * /dias-frecuencia (SPEC §2 public route; docs/decisions/0017): staff create a link for a clean
 * lead; the person opens it without signing in, sees the company's name and their current
 * choice, and saves how often the company may write to them (or that it may not). The token
 * names the clean lead and the company; the page learns nothing else about the person.
 */
export const contactFrequencyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tokens = createFrequencyLinkTokens(app.settings.jwtSecret);
  const tags = ['dias-frecuencia'];

  async function preferenceOf(database: Db, claims: FrequencyLinkClaims) {
    const { rows } = await database.execute<{ company_name: string; contact_frequency_days: number | null; opt_out: boolean | null }>(
      sql`select co.name as company_name, cl.contact_frequency_days, cl.opt_out
            from clean_leads cl join companies co on co.id = cl.company_id
           where cl.company_id = ${claims.companyId} and cl.id = ${claims.cleanLeadId}`,
    );
    const row = rows[0];
    if (!row) throw new AppError('NOT_FOUND', GONE);
    return {
      companyName: row.company_name,
      choice: choiceOf({ contactFrequencyDays: row.contact_frequency_days, optOut: row.opt_out }),
      expiresAt: claims.expiresAt.toISOString(),
    };
  }

  app.post(
    '/clean-leads/:id/frequency-link',
    {
      config: { permission: { module: 'leads', action: 'update' } },
      schema: { tags, params: z.object({ id: zId() }), response: { 200: frequencyLink } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { rows } = await db.execute(sql`select id from clean_leads where company_id = ${tenant.companyId} and id = ${request.params.id}`);
      if (rows.length === 0) throw new AppError('NOT_FOUND');
      const expiresAt = new Date(Date.now() + FREQUENCY_LINK_TTL_DAYS * 86_400_000);
      const token = tokens.sign({ cleanLeadId: request.params.id, companyId: tenant.companyId, expiresAt });
      return { url: `${app.settings.publicUrl}/dias-frecuencia/${token}`, token, expiresAt: expiresAt.toISOString() };
    },
  );

  app.get(
    '/public/dias-frecuencia/:token',
    { config: { public: true }, schema: { tags, params: frequencyTokenParams, response: { 200: frequencyPreference } } },
    async (request) => preferenceOf(db, tokens.verify(request.params.token)),
  );

  app.put(
    '/public/dias-frecuencia/:token',
    {
      config: { public: true },
      schema: {
        tags,
        params: frequencyTokenParams,
        body: frequencyChoiceInput,
        response: { 200: frequencyPreference.extend({ msg: z.string() }) },
      },
    },
    async (request) => {
      const claims = tokens.verify(request.params.token);
      const stored = storedOf(request.body.choice);
      const { rows } = await db.execute(
        sql`update clean_leads set contact_frequency_days = ${stored.contactFrequencyDays}, opt_out = ${stored.optOut}, updated_at = now()
             where company_id = ${claims.companyId} and id = ${claims.cleanLeadId} returning id`,
      );
      if (rows.length === 0) throw new AppError('NOT_FOUND', GONE);
      return { ...(await preferenceOf(db, claims)), msg: 'Preferencia guardada' };
    },
  );
};
