import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from './errors.js';

export interface AccessClaims {
  sub: string;
  /** Session id: revoking the session ends this token at once. */
  sid: string;
  /** The user's token version when the token was issued. */
  ver: number;
}

export function createTokenService(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ sid: claims.sid, ver: claims.ver })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.ver !== 'number') {
          throw new AppError('TOKEN_INVALID');
        }
        return { sub: payload.sub, sid: payload.sid, ver: payload.ver };
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
        throw new AppError('TOKEN_INVALID');
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

/** A random secret for links and cookies; only its hash is stored. */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
