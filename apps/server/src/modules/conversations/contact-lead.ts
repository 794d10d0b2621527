import { type CountryCode, contactLeadInput, contactLeadOut, contactLeadParams, type MessageContent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { createInbound } from './inbound.js';

/**
 * POST /chats/:id/messages/:messageId/contact-lead (decision 0020): a contact card a customer
 * shared becomes a lead (or opens the one that has its phone), through the same creation and
 * clean-lead merge as an inbound message. Needs leads.create.
 */
export const contactLeadRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const inbound = createInbound(app.secrets);
  app.post(
    '/chats/:id/messages/:messageId/contact-lead',
    {
      config: { permission: { module: 'leads', action: 'create' } },
      schema: { tags: ['chats'], params: contactLeadParams, body: contactLeadInput, response: { 200: contactLeadOut } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { id, messageId } = request.params;
      const [row] = (
        await db.execute(sql`select m.content, co.country from chat_messages m join companies co on co.id = m.company_id
          where m.company_id = ${tenant.companyId} and m.chat_id = ${id} and m.id = ${messageId} and m.kind = 'contacts'`)
      ).rows as Array<{ content: MessageContent | null; country: CountryCode }>;
      if (!row) throw new AppError('NOT_FOUND', 'El mensaje no existe en esta compañía o no es un contacto');
      const card = row.content?.contacts?.[request.body.index];
      const phone = card?.phones[0];
      if (!card || !phone) throw new AppError('BAD_REQUEST', 'El contacto no tiene teléfono');
      const lead = await db.transaction((tx) => inbound.contactLead(tx, tenant, row.country, { name: card.name, phone: phone.waId ?? phone.phone }));
      if (!lead) throw new AppError('BAD_REQUEST', 'El teléfono del contacto no es válido');
      return lead;
    },
  );
};
