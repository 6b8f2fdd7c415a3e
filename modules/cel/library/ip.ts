// kube's IP and CIDR libraries (since 1.30): ip(), isIP(), ip.isCanonical(), the address predicates, cidr(),
// isCIDR(), containsIP(), containsCIDR(), masked(), prefixLength(), ip(). Addresses parse as Go's netip does:
// no leading zeros, no zones, no IPv4-mapped IPv6.
import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from '../values.js';

export class CelIP {
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: unknown): boolean {
    return o instanceof CelIP && Buffer.compare(o.bytes, this.bytes) === 0;
  }
  toString(): string {
    if (this.family === 4) return this.bytes.join('.');
    const groups: number[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((this.bytes[i] << 8) | this.bytes[i + 1]);
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8;) {
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) [best, bestLen] = [i, j - i];
      i = j === i ? i + 1 : j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best < 0) return hex.join(':');
    return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
  }
}

export class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly prefix: number,
  ) {}
  equals(o: unknown): boolean {
    return o instanceof CelCIDR && o.prefix === this.prefix && o.ip.equals(this.ip);
  }
  masked(): CelCIDR {
    const b = Uint8Array.from(this.ip.bytes);
    for (let i = 0; i < b.length * 8; i++) if (i >= this.prefix) b[i >> 3] &= ~(0x80 >> (i & 7));
    return new CelCIDR(new CelIP(b), this.prefix);
  }
  contains(ip: CelIP): boolean {
    if (ip.family !== this.ip.family) return false;
    for (let i = 0; i < this.prefix; i++) {
      const bit = 0x80 >> (i & 7);
      if ((ip.bytes[i >> 3] & bit) !== (this.ip.bytes[i >> 3] & bit)) return false;
    }
    return true;
  }
  toString(): string {
    return `${this.ip.toString()}/${this.prefix}`;
  }
}

function parseV4(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p[0] === '0') || Number(p) > 255) return undefined;
    out[i] = Number(p);
  }
  return out;
}

function parseV6(s: string): Uint8Array | undefined {
  if (s.includes('%')) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const words: number[] = [];
  const all = [...head, ...(halves.length === 2 ? ['::'] : []), ...tail];
  for (let i = 0; i < all.length; i++) {
    const g = all[i];
    if (g === '::') continue;
    if (i === all.length - 1 && g.includes('.')) {
      const v4 = parseV4(g);
      if (!v4) return undefined;
      words.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) words.push(parseInt(g, 16));
    else return undefined;
  }
  if (halves.length === 2 ? words.length > 7 : words.length !== 8) return undefined;
  const fill = 8 - words.length;
  const headLen = head.length + (halves.length === 2 ? 0 : 0);
  const full = [
    ...words.slice(0, headLen),
    ...new Array<number>(halves.length === 2 ? fill : 0).fill(0),
    ...words.slice(headLen),
  ];
  const out = new Uint8Array(16);
  full.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** The address, or why it is not one (Go's netip wording where it matters). */
export function parseIP(s: string): CelIP | string {
  if (s.includes(':')) {
    const b = parseV6(s);
    if (!b) return `ParseAddr(${JSON.stringify(s)}): unable to parse IP`;
    if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
      return 'IPv4-mapped IPv6 addresses are not allowed';
    }
    return new CelIP(b);
  }
  const b = parseV4(s);
  return b ? new CelIP(b) : `ParseAddr(${JSON.stringify(s)}): unable to parse IP`;
}

export function parseCIDR(s: string): CelCIDR | string {
  const slash = s.indexOf('/');
  const ip = slash < 0 ? undefined : parseIP(s.slice(0, slash));
  const bits = s.slice(slash + 1);
  if (!(ip instanceof CelIP) || !/^(0|[1-9]\d*)$/.test(bits) || Number(bits) > ip.bytes.length * 8) {
    if (ip === 'IPv4-mapped IPv6 addresses are not allowed') return ip;
    return `netip.ParsePrefix(${JSON.stringify(s)}): bad prefix`;
  }
  return new CelCIDR(ip, Number(bits));
}

function ipOrThrow(s: string): CelIP {
  const ip = parseIP(s);
  if (typeof ip === 'string')
    throw new CelRuntimeError(
      `IP Address ${JSON.stringify(s)} parse error during conversion from string: ${ip}`,
    );
  return ip;
}

function cidrOrThrow(s: string): CelCIDR {
  const c = parseCIDR(s);
  if (typeof c === 'string')
    throw new CelRuntimeError(`network address parse error during conversion from string: ${c}`);
  return c;
}

const inRange = (ip: CelIP, cidr: string) => cidrOrThrow(cidr).contains(ip);

class IPNamespace {}

export function registerIP(env: Environment): void {
  env.registerType('net.IP', CelIP);
  env.registerType('net.CIDR', CelCIDR);
  env.registerFunction('ip(string): net.IP', ipOrThrow);
  env.registerFunction('isIP(string): bool', (s: string) => typeof parseIP(s) !== 'string');
  env.registerType('IPNamespace', IPNamespace);
  // `ip.isCanonical(...)`: cel-js reads `ip` as a receiver, so a namespace constant named ip carries it
  env.registerConstant('ip', 'IPNamespace', new IPNamespace());
  env.registerFunction(
    'IPNamespace.isCanonical(string): bool',
    (_: unknown, s: string) => ipOrThrow(s).toString() === s,
  );
  env.registerFunction('string(net.IP): string', (ip: CelIP) => ip.toString());
  env.registerFunction('net.IP.family(): int', (ip: CelIP) => BigInt(ip.family));
  env.registerFunction('net.IP.isUnspecified(): bool', (ip: CelIP) => ip.bytes.every((b) => b === 0));
  env.registerFunction('net.IP.isLoopback(): bool', (ip: CelIP) =>
    ip.family === 4 ? ip.bytes[0] === 127 : inRange(ip, '::1/128'),
  );
  // Go's netip: 224.0.0.0/24, and ffX2::/16 (any flags, link-local scope)
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: CelIP) =>
    ip.family === 4 ? inRange(ip, '224.0.0.0/24') : ip.bytes[0] === 0xff && (ip.bytes[1] & 0x0f) === 0x02,
  );
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', (ip: CelIP) =>
    ip.family === 4 ? inRange(ip, '169.254.0.0/16') : inRange(ip, 'fe80::/10'),
  );
  // Go's netip: not unspecified, loopback, multicast, link-local unicast, nor the IPv4 broadcast address
  env.registerFunction('net.IP.isGlobalUnicast(): bool', (ip: CelIP) => {
    const b = ip.bytes;
    if (b.every((x) => x === 0)) return false;
    if (ip.family === 4) {
      if (b.every((x) => x === 255)) return false;
      return !(b[0] === 127 || (b[0] & 0xf0) === 0xe0 || inRange(ip, '169.254.0.0/16'));
    }
    return !(inRange(ip, '::1/128') || b[0] === 0xff || inRange(ip, 'fe80::/10'));
  });
  env.registerOperator('net.IP == net.IP', (a: CelIP, b: CelIP) => a.equals(b));

  env.registerFunction('cidr(string): net.CIDR', cidrOrThrow);
  env.registerFunction('isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string');
  env.registerFunction('string(net.CIDR): string', (c: CelCIDR) => c.toString());
  env.registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => c.ip);
  env.registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix));
  env.registerFunction('net.CIDR.masked(): net.CIDR', (c: CelCIDR) => c.masked());
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', (c: CelCIDR, ip: CelIP) => c.contains(ip));
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) =>
    c.contains(ipOrThrow(s)),
  );
  const containsCIDR = (c: CelCIDR, o: CelCIDR) => o.prefix >= c.prefix && c.contains(o.ip);
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR);
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) =>
    containsCIDR(c, cidrOrThrow(s)),
  );
  env.registerOperator('net.CIDR == net.CIDR', (a: CelCIDR, b: CelCIDR) => a.equals(b));
}
