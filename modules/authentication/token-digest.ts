/**
 * The SHA-256 of a bearer token, by which authenticators look tokens up (never by the token itself). The last
 * one is kept: the authenticators of the union each look up the same token in turn.
 */
import { createHash } from 'node:crypto';

export interface TokenDigest {
  bytes: Buffer;
  /** the map key */
  base64: string;
}

let last: { token: string; digest: TokenDigest } | undefined;

export function tokenDigest(token: string): TokenDigest {
  if (last?.token === token) return last.digest;
  const bytes = createHash('sha256').update(token).digest();
  const digest = { bytes, base64: bytes.toString('base64') };
  last = { token, digest };
  return digest;
}
