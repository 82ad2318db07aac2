import { createSigner, createVerifier } from 'fast-jwt';

/** Short-lived signed JWTs (HS256) carrying the user id; refresh tokens are opaque and live in the DB. */
export interface AccessTokens {
  ttlSeconds: number;
  sign(uid: string): string;
  /** The user id, or null for a token that is malformed, forged or expired. */
  verify(token: string): string | null;
}

export function createAccessTokens(secret: string, ttlSeconds: number, now: () => number): AccessTokens {
  // iat/exp come from our clock (not fast-jwt's) so tests can move time.
  const signer = createSigner({ key: secret, algorithm: 'HS256', noTimestamp: true });
  const verifier = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    ignoreExpiration: true,
    cache: 1000,
  });
  return {
    ttlSeconds,
    sign(uid) {
      const iat = Math.floor(now() / 1000);
      return signer({ sub: uid, iat, exp: iat + ttlSeconds });
    },
    verify(token) {
      try {
        const payload = verifier(token) as { sub?: unknown; exp?: unknown };
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
        return payload.exp * 1000 > now() ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
