import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Streams a CSV built a batch at a time: the first batch is read before the status line (a
 * failure there is an ordinary error answer, never a 200 cut short), then the rest as it comes.
 * A failure later ends the file as the generator decides (the leads export writes a visible
 * error line, decision 0021) and is logged.
 */
export async function sendCsv(request: FastifyRequest, reply: FastifyReply, rows: AsyncGenerator<string>, filename: string) {
  const first = await rows.next();
  const stream = Readable.from(
    (async function* () {
      if (!first.done) yield first.value;
      yield* rows;
    })(),
  );
  stream.on('error', (error) => request.log.error({ err: error }, 'la exportación CSV se interrumpió'));
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}-${new Date().toISOString().slice(0, 10)}.csv"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
