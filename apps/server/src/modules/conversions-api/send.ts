import { CONVERSION_BATCH_MAX, conversionsMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../../db/database.js';
import { type ConversionsClient, isRetryable } from '../../integrations/meta/conversions.js';
import { graphErrorReason } from '../../integrations/meta/error-reasons.js';
import { ProviderError } from '../../integrations/meta/send.js';
import type { SecretBox } from '../../lib/secret-box.js';

/** How long a claimed batch is held from another worker (a crash frees it after this). */
const LEASE_SECONDS = 300;
/** The growing waits between tries: 1, 2, 4… minutes, at most an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 60 * 2 ** Math.max(0, attempts - 1));

/** Why Meta refused, in Spanish, with its code and type: never Meta's own text (decision 0098). */
export function refusalReason(error: ProviderError): string {
  const { code, subcode, type, httpStatus } = error.details;
  const known =
    code === 190
      ? 'El token de acceso venció o no es válido: guarda uno nuevo en la API de conversiones'
      : code === 10 || code === 200 || (code !== undefined && code >= 200 && code < 300)
        ? 'El token no tiene permiso sobre este conjunto de datos'
        : code === 100
          ? 'Meta rechazó un dato del evento o el conjunto de datos no existe'
          : graphErrorReason(code, subcode);
  const tail = [code !== undefined ? `código ${code}${subcode ? `/${subcode}` : ''}` : httpStatus ? `HTTP ${httpStatus}` : null, type ? `tipo ${type}` : null].filter(Boolean).join(', ');
  return `${known ?? 'Meta rechazó el evento'}${tail ? ` (${tail})` : ''}`;
}

/**
 * Sends one company's due pending events to its dataset, in batches of up to 1,000 claimed with a
 * lease (two workers never send the same row). A batch Meta takes marks its rows sent with
 * `events_received` and `fbtrace_id`; a 5xx, a network error or a rate limit (4, 17, 32, 613,
 * 80004) is tried again after a growing wait while the click is within its 7 days; any other
 * refusal fails the rows with the reason in Spanish. Events past the 7 days are failed unsent.
 */
export async function sendDueConversions(deps: { db: Db; secrets: SecretBox; client: ConversionsClient; log: FastifyBaseLogger }, companyId: string): Promise<{ sent: number; failed: number; retried: number }> {
  const { db, secrets, client, log } = deps;
  const out = { sent: 0, failed: 0, retried: 0 };
  const [s] = await rowsOf<{ enabled: boolean; dataset_id: string | null; access_token: string | null }>(
    db,
    sql`select enabled, dataset_id, access_token from conversion_settings where company_id = ${companyId}`,
  );
  if (!s?.enabled || !s.dataset_id || !s.access_token) return out;
  const token = secrets.open<string>(s.access_token);
  await db.execute(sql`update conversion_events set status = 'failed', reason = ${conversionsMessages.expired}, next_attempt_at = null
      where company_id = ${companyId} and status = 'pending' and expires_at <= now()`);
  for (let round = 0; round < 20; round++) {
    const batch = await rowsOf<{ id: string; event_id: string; payload: object; attempts: number; expires_at: Date | string }>(
      db,
      sql`update conversion_events e set next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = e.attempts + 1
          from (select id from conversion_events where company_id = ${companyId} and status = 'pending' and next_attempt_at <= now()
                 order by next_attempt_at, id limit ${CONVERSION_BATCH_MAX} for update skip locked) d
         where e.company_id = ${companyId} and e.id = d.id
         returning e.id::text, e.event_id, e.payload, e.attempts, e.expires_at`,
    );
    if (!batch.length) break;
    const ids = `{${batch.map((r) => r.id).join(',')}}`;
    try {
      const answer = await client.send(token, s.dataset_id, batch.map((r) => r.payload));
      await db.execute(sql`update conversion_events set status = 'sent', sent_at = now(), next_attempt_at = null, reason = null, error_code = null, error_type = null,
            events_received = ${answer.eventsReceived}, fbtrace_id = ${answer.fbtraceId ?? null}
          where company_id = ${companyId} and id = any(${ids}::uuid[])`);
      out.sent += batch.length;
      log.info({ companyId, events: batch.length, eventsReceived: answer.eventsReceived, fbtraceId: answer.fbtraceId }, 'eventos enviados a la API de conversiones de Meta');
      // a partial batch was all that was due: what is written from now on wakes its own job
      if (batch.length < CONVERSION_BATCH_MAX) break;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const reason = refusalReason(error);
      const { code, type, fbtraceId } = error.details;
      if (isRetryable(error)) {
        // tried again after a growing wait, unless the click's 7 days end first
        await db.execute(sql`update conversion_events set reason = ${`${reason}: se reintentará`}, error_code = ${code ?? null}, error_type = ${type ?? null}, fbtrace_id = ${fbtraceId ?? null},
              status = case when now() + make_interval(secs => least(3600, 60 * power(2, greatest(attempts - 1, 0)))::int) >= expires_at then 'failed' else 'pending' end,
              next_attempt_at = case when now() + make_interval(secs => least(3600, 60 * power(2, greatest(attempts - 1, 0)))::int) >= expires_at then null
                                     else now() + make_interval(secs => least(3600, 60 * power(2, greatest(attempts - 1, 0)))::int) end
            where company_id = ${companyId} and id = any(${ids}::uuid[])`);
        out.retried += batch.length;
        log.warn({ companyId, events: batch.length, code, type, fbtraceId }, 'la API de conversiones de Meta no respondió: se reintentará');
        break;
      }
      await db.execute(sql`update conversion_events set status = 'failed', next_attempt_at = null, reason = ${reason}, error_code = ${code ?? null}, error_type = ${type ?? null}, fbtrace_id = ${fbtraceId ?? null}
          where company_id = ${companyId} and id = any(${ids}::uuid[])`);
      out.failed += batch.length;
      log.warn({ companyId, events: batch.length, code, type, fbtraceId }, 'la API de conversiones de Meta rechazó los eventos');
    }
  }
  return out;
}
