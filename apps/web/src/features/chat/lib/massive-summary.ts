import type { MassiveMessageResult } from '@mostrador/contract';

const chats = (n: number) => (n === 1 ? '1 chat' : `${n} chats`);
const skippedWord = (n: number) => (n === 1 ? 'omitido' : 'omitidos');

/** Each reason a mass message skipped chats for, with how many it skipped, most frequent first. */
export function skippedReasons(result: MassiveMessageResult): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const s of result.skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/**
 * What a mass message did, in a line: how many went to the queue out of how many chats, and how
 * many were skipped ('Se enviaron 3 de 5 mensajes; 2 chats omitidos'). `total`: the chats chosen.
 */
export function massiveHeadline(result: MassiveMessageResult, total: number): string {
  const skipped = result.skipped.length;
  if (result.queued === 0) return `No se envió ningún mensaje: ${chats(skipped)} ${skippedWord(skipped)}.`;
  const sent = result.queued === 1 ? `Se envió 1 de ${total} mensajes` : `Se enviaron ${result.queued} de ${total} mensajes`;
  return skipped ? `${sent}; ${chats(skipped)} ${skippedWord(skipped)}.` : `${sent}.`;
}

/**
 * The snackbar's second line under 'Mensajes enviados con éxito' when some chats were skipped:
 * how many and why ('2 de 5 chats omitidos: fuera de la ventana de 24 horas (1), sin canal (1)').
 */
export function massiveSkippedLine(result: MassiveMessageResult, total: number): string | undefined {
  const skipped = result.skipped.length;
  if (skipped === 0) return undefined;
  const why = skippedReasons(result)
    .map((r) => `${r.reason.replace(/[.:]\s*$/, '')} (${r.count})`)
    .join('; ');
  return `${skipped} de ${chats(total)} ${skippedWord(skipped)}: ${why}`;
}
