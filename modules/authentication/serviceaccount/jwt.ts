/**
 * Compact JWS as kube's service-account tokens use it: header `{alg, kid}`, a JSON payload, one signature.
 * Verification picks the keys by `kid` (all of them when the token names none) and each key verifies only
 * with its own algorithm, so a token cannot choose how it is checked.
 */
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import type { SigningKey, VerificationKey } from './keys.js';

export async function signJwt(payload: Record<string, unknown>, key: SigningKey): Promise<string> {
  return new CompactSign(Buffer.from(JSON.stringify(payload)))
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .sign(key.privateKey);
}

/**
 * The `iss` of a token that looks like a JWT, read before any check (kube's hasCorrectIssuer): it only
 * tells which authenticator the token is for; nothing is trusted until the signature is.
 */
export function unverifiedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const iss = (payload as { iss?: unknown } | null)?.iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/** The payload of `token` once one of `keys` verified it; an Error in kube's words otherwise. */
export async function verifiedPayload(
  token: string,
  keys: readonly VerificationKey[],
): Promise<Record<string, unknown>> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new Error('invalid token');
  }
  const candidates = kid ? keys.filter((k) => k.kid === kid) : keys;
  if (candidates.length === 0) throw new Error('invalid signature, no keys found');
  for (const key of candidates) {
    try {
      const { payload } = await compactVerify(token, key.publicKey, { algorithms: [key.alg] });
      const claims: unknown = JSON.parse(Buffer.from(payload).toString('utf8'));
      if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) break;
      return claims as Record<string, unknown>;
    } catch {
      // the next key may be the one (key rotation)
    }
  }
  throw new Error('invalid signature');
}
