import { createHmac, hkdfSync } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/safe-equal.js';

/** Bytes of the HMAC kept in a link: 128 bits, plenty against forgery, short enough for a WhatsApp message. */
const MAC_BYTES = 16;
const uuidHex = /^[0-9a-f]{32}$/;

export interface FrequencyLinkClaims {
  cleanLeadId: string;
  companyId: string;
  expiresAt: Date;
}

const toHex = (uuid: string) => uuid.replaceAll('-', '').toLowerCase();
const toUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The signed token of a /dias-frecuencia link (docs/decisions/0017): clean lead id, company id
 * and expiry (seconds) packed in 36 bytes, then an HMAC-SHA256 over them, base64url — about 70
 * characters. The key is derived (HKDF) from the server's JWT secret for this purpose only, so
 * a link can never pass as an access token nor an access token as a link. Nothing is stored:
 * a link is valid until it expires or its clean lead is deleted.
 */
export function createFrequencyLinkTokens(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'mostrador', 'dias-frecuencia-link-v1', 32));
  const mac = (payload: Buffer) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    sign({ cleanLeadId, companyId, expiresAt }: FrequencyLinkClaims): string {
      const payload = Buffer.alloc(36);
      Buffer.from(toHex(cleanLeadId), 'hex').copy(payload, 0);
      Buffer.from(toHex(companyId), 'hex').copy(payload, 16);
      payload.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), 32);
      return Buffer.concat([payload, mac(payload)]).toString('base64url');
    },
    /** The link's claims, or a Spanish 400: not a link of this server, or expired. */
    verify(token: string, now = new Date()): FrequencyLinkClaims {
      const raw = /^[A-Za-z0-9_-]{60,80}$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
      if (raw.length !== 36 + MAC_BYTES) throw new AppError('BAD_REQUEST', 'El enlace no es válido');
      const payload = raw.subarray(0, 36);
      if (!safeEqual(raw.subarray(36), mac(payload))) throw new AppError('BAD_REQUEST', 'El enlace no es válido');
      const expiresAt = new Date(payload.readUInt32BE(32) * 1000);
      if (expiresAt <= now) throw new AppError('BAD_REQUEST', 'El enlace venció: pide uno nuevo a la empresa');
      const cleanLeadId = payload.subarray(0, 16).toString('hex');
      const companyId = payload.subarray(16, 32).toString('hex');
      if (!uuidHex.test(cleanLeadId) || !uuidHex.test(companyId)) throw new AppError('BAD_REQUEST', 'El enlace no es válido');
      return { cleanLeadId: toUuid(cleanLeadId), companyId: toUuid(companyId), expiresAt };
    },
  };
}
export type FrequencyLinkTokens = ReturnType<typeof createFrequencyLinkTokens>;
