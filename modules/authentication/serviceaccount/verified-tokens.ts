/**
 * Tokens whose signature was verified, by SHA-256 digest, least recently used first out: a token costs one
 * signature check, then a map lookup per request. What may change while a token is cached (its lifetime,
 * its objects) is checked on every use by the authenticator, never here.
 */
import type { UserInfo } from '../../api/index.js';
import type { ServiceAccountClaims } from './claims.js';

export interface VerifiedToken {
  claims: ServiceAccountClaims;
  /** the user it authenticates as, made once and shared by every request with it: frozen */
  user: Readonly<UserInfo>;
}

export class VerifiedTokens {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly capacity = 10_000) {}

  get(digest: string): VerifiedToken | undefined {
    const entry = this.entries.get(digest);
    if (entry) {
      // most recently used last: Map keeps insertion order
      this.entries.delete(digest);
      this.entries.set(digest, entry);
    }
    return entry;
  }

  set(digest: string, entry: VerifiedToken): void {
    this.entries.delete(digest);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, entry);
  }

  delete(digest: string): void {
    this.entries.delete(digest);
  }

  get size(): number {
    return this.entries.size;
  }
}
