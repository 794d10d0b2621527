import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR and what it keeps for this process alone (decision 0064): the app key, the embedded
 * database's password and data. The directory is made mode 700 and a looser one is tightened,
 * saying so; the secrets in it are mode 600. Another local user reads none of it.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if (mode & 0o077) {
    chmodSync(dir, 0o700);
    console.warn(`${dir} tenía permisos ${mode.toString(8)}: ahora 700, solo el usuario que corre Mostrador entra (decisión 0064)`);
  }
}

/** A random secret kept in `dir/name` (mode 600), made on first use: it survives restarts. */
export function privateSecret(dir: string, name: string): string {
  privateDir(dir);
  const file = path.join(dir, name);
  if (existsSync(file)) {
    if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Writes `text` to `file` readable by this user only, also when the file was there with another mode. */
export function writePrivateFile(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}
