/** Media types as clients send them in Accept and Content-Type, e.g. `application/json;as=Table;v=v1;g=meta.k8s.io`. */

export interface MediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export function parseMediaType(text: string): MediaType | undefined {
  const [essence, ...rawParams] = text.split(';');
  const [type, subtype] = essence.trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    const value = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (key === 'q') q = Number(value) || 0;
    else params[key] = value;
  }
  return { type, subtype, params, q };
}

/** An Accept header as a list in order of preference (by q, then as written). */
export function parseAccept(header: string | undefined): MediaType[] {
  if (!header) return [];
  const list: MediaType[] = [];
  for (const part of header.split(',')) {
    const m = parseMediaType(part);
    if (m && m.q > 0) list.push(m);
  }
  return list
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.q - a.m.q || a.i - b.i)
    .map((x) => x.m);
}
