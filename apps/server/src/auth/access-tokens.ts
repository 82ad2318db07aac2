import { createSigner, createVerifier } from 'fast-jwt';

/**
 * Short-lived signed JWTs (HS256) carrying the user id and the session (refresh-token family) they
 * were issued for; refresh tokens are opaque and live in the DB.
 */
export interface AccessTokens {
  ttlSeconds: number;
  sign(uid: string, sessionId?: string): string;
  /** The claims, or null for a token that is malformed, forged or expired. */
  verify(token: string): AccessClaims | null;
}

export interface AccessClaims {
  uid: string;
  /** The refresh-token family; null for a token issued outside a session (tests, tools). */
  sessionId: string | null;
}

const VERIFIED_CACHE_SIZE = 10_000;

export function createAccessTokens(secret: string, ttlSeconds: number, now: () => number): AccessTokens {
  // iat/exp come from our clock (not fast-jwt's) so tests can move time.
  const signer = createSigner({ key: secret, algorithm: 'HS256', noTimestamp: true });
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true });
  // Tokens whose signature checked out, by their exact text (a Map lookup costs far less than the
  // HMAC, or than fast-jwt's own cache, which SHA-256-hashes the token first). Expiry is still
  // checked on every use. Bounded: emptied when full.
  const verified = new Map<string, AccessClaims & { exp: number }>();
  return {
    ttlSeconds,
    sign(uid, sessionId) {
      const iat = Math.floor(now() / 1000);
      return signer({ sub: uid, ...(sessionId ? { sid: sessionId } : {}), iat, exp: iat + ttlSeconds });
    },
    verify(token) {
      let claims = verified.get(token);
      if (!claims) {
        try {
          const payload = verifier(token) as { sub?: unknown; sid?: unknown; exp?: unknown };
          if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
          const sessionId = typeof payload.sid === 'string' ? payload.sid : null;
          claims = { uid: payload.sub, sessionId, exp: payload.exp };
        } catch {
          return null;
        }
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, claims);
      }
      return claims.exp * 1000 > now() ? claims : null;
    },
  };
}
