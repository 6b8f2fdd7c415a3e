// kube's URL library: url(), isURL() and the URL getters. Parsing follows Go's url.ParseRequestURI: an absolute
// URI or an absolute path, no fragment split.
import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from '../values.js';

export class CelURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawPath: string,
    readonly rawQuery: string,
    readonly text: string,
  ) {}
  equals(o: unknown): boolean {
    return o instanceof CelURL && o.text === this.text;
  }
}

const absolute = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?]*))?([^?]*)(?:\?(.*))?$/s;

export function parseURL(text: string): CelURL | string {
  if (text.startsWith('/')) {
    const q = text.indexOf('?');
    const raw = q < 0 ? text : text.slice(0, q);
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return `parse ${JSON.stringify(text)}: invalid URL escape`;
    }
    return new CelURL('', '', path, raw, q < 0 ? '' : text.slice(q + 1), text);
  }
  const m = absolute.exec(text);
  if (!m) return `parse ${JSON.stringify(text)}: invalid URI for request`;
  const authority = m[2] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const port = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host);
  if (!port || (port[2] !== undefined && !/^\d*$/.test(port[2]))) {
    return `parse ${JSON.stringify(text)}: invalid port ${JSON.stringify(':' + (port?.[2] ?? ''))} after host`;
  }
  let path: string;
  try {
    path = decodeURIComponent(m[3]);
  } catch {
    return `parse ${JSON.stringify(text)}: invalid URL escape`;
  }
  return new CelURL(m[1], host, path, m[3], m[4] ?? '', text);
}

function hostname(u: CelURL): string {
  const m = /^(?:\[([^\]]*)\]|([^:]*))/.exec(u.host);
  return m?.[1] ?? m?.[2] ?? '';
}

/** Go's EscapedPath: the path as written when that is a valid encoding, else the path escaped as Go does. */
function escapedPath(u: CelURL): string {
  if (/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/[\]]|%[0-9A-Fa-f]{2})*$/.test(u.rawPath)) return u.rawPath;
  let out = '';
  for (const byte of Buffer.from(u.path, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~$&+,/:;=@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function query(u: CelURL): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!u.rawQuery) return out;
  for (const part of u.rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    (out[key] ??= []).push(decode(eq < 0 ? '' : part.slice(eq + 1)));
  }
  return out;
}

export function registerURL(env: Environment): void {
  env.registerType('kubernetes.URL', CelURL);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => {
    const u = parseURL(s);
    if (typeof u === 'string')
      throw new CelRuntimeError(`URL parse error during conversion from string: ${u}`);
    return u;
  });
  env.registerFunction('isURL(string): bool', (s: string) => typeof parseURL(s) !== 'string');
  env.registerFunction('kubernetes.URL.getScheme(): string', (u: CelURL) => u.scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: CelURL) => u.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', hostname);
  env.registerFunction(
    'kubernetes.URL.getPort(): string',
    (u: CelURL) => /:(\d*)$/.exec(u.host.replace(/^\[[^\]]*\]/, ''))?.[1] ?? '',
  );
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', escapedPath);
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', query);
  env.registerOperator('kubernetes.URL == kubernetes.URL', (a: CelURL, b: CelURL) => a.equals(b));
}
