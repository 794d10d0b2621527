import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'v1.';

/**
 * Integration secrets at rest (ARCHITECTURE §3): AES-256-GCM with a key derived by HKDF from
 * SECRETS_KEY (or the JWT secret). A sealed value is `v1.<base64url(iv | tag | ciphertext)>`;
 * any JSON value can be sealed. Only integration clients open them; responses never do.
 */
export function createSecretBox(keyMaterial: string) {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, 'mostrador', 'integration-secrets-v1', 32));
  return {
    seal(value: unknown): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open<T = unknown>(sealed: string): T {
      if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as T;
    },
    isSealed: (value: unknown) => typeof value === 'string' && value.startsWith(PREFIX),
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
