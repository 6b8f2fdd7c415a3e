/**
 * What kube's WithAuthentication does once a request is authenticated: its Authorization header and every
 * proxy header (the standard X-Remote-* and the configured `--requestheader-*` ones) are removed, so
 * nothing this server passes the request on to (an aggregated API server, an upstream cluster) receives
 * the client's token or takes headers a client wrote for a proxy's.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHeaderNames } from './request-header.js';

/** kube removes these whatever the flags say */
const STANDARD: RequestHeaderNames = {
  usernameHeaders: ['X-Remote-User'],
  uidHeaders: ['X-Remote-Uid'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
};

export interface HeaderCarrier {
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
}

export class CredentialHeaders {
  private names!: ReadonlySet<string>;
  private prefixes!: readonly string[];
  /** first letters (lower case) of every name and prefix: most headers are passed over on their first letter */
  private firsts!: ReadonlySet<number>;

  constructor(configured?: RequestHeaderNames) {
    this.configure(configured);
  }

  /** The proxy's header names changed (a delegating server's host said so); the standard ones always go. */
  configure(configured?: RequestHeaderNames): void {
    const all = [STANDARD, ...(configured ? [configured] : [])];
    const lower = (list: readonly string[]) => list.map((h) => h.toLowerCase());
    this.names = new Set([
      'authorization',
      ...all.flatMap((n) => lower([...n.usernameHeaders, ...n.uidHeaders, ...n.groupHeaders])),
    ]);
    this.prefixes = [...new Set(all.flatMap((n) => lower(n.extraHeaderPrefixes)))];
    this.firsts = new Set([...this.names, ...this.prefixes].map((n) => n.charCodeAt(0)));
  }

  private matches(name: string): boolean {
    if (!this.firsts.has(name.charCodeAt(0) | 0x20)) return false;
    const lower = name.toLowerCase();
    return this.names.has(lower) || this.prefixes.some((p) => lower.startsWith(p));
  }

  /**
   * On every request: nothing is written unless a credential header is there. The raw list (what a request
   * passed on is made from) loses the headers; in the parsed object their values become undefined, as
   * `delete` would turn Node's header object into a slow dictionary for the rest of the request.
   */
  remove(request: HeaderCarrier): void {
    const raw = request.rawHeaders;
    let kept = -1;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (this.matches(raw[i])) {
        if (kept < 0) kept = i;
        request.headers[raw[i].toLowerCase()] = undefined;
      } else if (kept >= 0) {
        raw[kept++] = raw[i];
        raw[kept++] = raw[i + 1];
      }
    }
    if (kept >= 0) raw.length = kept;
  }
}
