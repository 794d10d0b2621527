import type { FastifyInstance } from 'fastify';

/** The sandbox's review of a new template, then a sync (SEND_PROVIDER=sandbox). */
export const SANDBOX_REVIEW_QUEUE = 'whatsapp-templates.sandbox-review';

/** The whatsapp-templates module's job (decision 0038), on the routes plugin's template service. */
export async function whatsappTemplateJobs(app: FastifyInstance, { service }: { service: { sync(companyId: string): Promise<unknown> } }) {
  // the sandbox's review ends by itself: a sync of the company after it
  app.jobs.define<{ companyId: string }>(SANDBOX_REVIEW_QUEUE, async ({ companyId }) => {
    await service.sync(companyId).catch((error: unknown) => app.log.warn({ err: error, companyId }, 'no se pudo sincronizar las plantillas del sandbox'));
  });
}
