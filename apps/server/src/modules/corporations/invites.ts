import { newSecret } from '../../lib/tokens.js';

/**
 * A one-time corporation registration link: the secret goes in the link, its hash in the
 * database. The statement is plain SQL (no parameters) so that `npm run invite` can run it
 * over the simple query protocol against a running embedded server.
 */
export function inviteStatement(minutes: number, note = 'npm run invite') {
  const { secret, hash } = newSecret();
  const safeNote = note.replace(/'/g, "''");
  return {
    secret,
    sql: `insert into registration_tokens (token_hash, note, expires_at)
          values ('${hash}', '${safeNote}', now() + make_interval(mins => ${Math.max(1, Math.ceil(minutes))}))`,
  };
}
