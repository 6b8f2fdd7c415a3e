/**
 * The detached JWS kube's bootstrap signer writes and `kubeadm join` recomputes and compares as text
 * (RFC 7515 appendix F: `<header>..<signature>`): HS256 keyed with the token's secret part, the protected
 * header `{"alg":"HS256","kid":"<id>"}` in the key order and spacing go-jose writes, the payload the content
 * base64url-encoded without padding. kube pads a short key with zeros to 32 bytes for go-jose; HMAC pads
 * keys to its 64-byte block with zeros anyway, so the signature is the same without that step.
 */
import { createHmac } from 'node:crypto';

export function detachedJws(content: string, tokenId: string, tokenSecret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })).toString('base64url');
  const payload = Buffer.from(content).toString('base64url');
  const signature = createHmac('sha256', tokenSecret).update(`${header}.${payload}`).digest('base64url');
  return `${header}..${signature}`;
}
