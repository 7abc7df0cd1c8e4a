/**
 * The `exp` claim of a JWT (an OIDC id-token), in milliseconds since the epoch, read without
 * verifying the signature (the API server verifies it; we only need to know when to refresh).
 * Undefined when the token is not a JWT or carries no numeric `exp`.
 */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? Math.floor(claims.exp) * 1000 : undefined;
  } catch {
    return undefined;
  }
}
