import { hash, verify } from '@node-rs/argon2';

// argon2id with the library defaults (19 MiB, 2 passes): OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so a missing account is not revealed by timing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hash('mostrador-timing-equaliser');
  await verifyPassword(await dummy, password);
}
