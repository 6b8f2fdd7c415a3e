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
  private readonly names: ReadonlySet<string>;
  private readonly prefixes: readonly string[];

  constructor(configured?: RequestHeaderNames) {
    const all = [STANDARD, ...(configured ? [configured] : [])];
    const lower = (list: readonly string[]) => list.map((h) => h.toLowerCase());
    this.names = new Set([
      'authorization',
      ...all.flatMap((n) => lower([...n.usernameHeaders, ...n.uidHeaders, ...n.groupHeaders])),
    ]);
    this.prefixes = [...new Set(all.flatMap((n) => lower(n.extraHeaderPrefixes)))];
  }

  private matches(lowerName: string): boolean {
    return this.names.has(lowerName) || this.prefixes.some((p) => lowerName.startsWith(p));
  }

  remove(request: HeaderCarrier): void {
    for (const name of Object.keys(request.headers)) {
      if (this.matches(name)) delete request.headers[name];
    }
    const raw = request.rawHeaders;
    let kept = 0;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (this.matches(raw[i].toLowerCase())) continue;
      raw[kept++] = raw[i];
      raw[kept++] = raw[i + 1];
    }
    raw.length = kept;
  }
}
