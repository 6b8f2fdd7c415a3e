/**
 * Network value checks with kube's messages (apimachinery util/validation ip.go and validation.go, and
 * core's ValidateNonSpecialIP): IP addresses as k8s.io/utils/net's sloppy parser reads them (IPv4 parts may
 * have leading zeros, still decimal), CIDRs, port numbers, IANA service port names, domain names.
 */
import { fieldError, type FieldError } from '../api/index.js';
import { isDNS1123Label, isDNS1123Subdomain, maxLenError } from './names.js';

/** An address as 16 bytes (IPv4 in the IPv4-mapped form, as Go's net.IP keeps it), or undefined. */
export function parseIPSloppy(s: string): Uint8Array | undefined {
  if (s.includes(':')) return parseIPv6(s);
  const v4 = parseIPv4(s);
  return v4 && mapped(v4);
}

function mapped(v4: number[]): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out.set(v4, 12);
  return out;
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): Uint8Array | undefined {
  let head = s;
  let tailV4: number[] | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tailV4 = parseIPv4(s.slice(lastColon + 1));
    if (!tailV4) return undefined;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (!left || !right) return undefined;
  const total = left.length + right.length;
  if (halves.length === 2 ? total > 7 : total !== 8) return undefined;
  const all = [...left, ...new Array<number>(8 - total).fill(0), ...right];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  if (tailV4) out.set(tailV4, 12);
  return out;
}

/** Go's To4() != nil: a dotted IPv4 address or an IPv4-mapped IPv6 one. */
export function isIPv4Bytes(ip: Uint8Array): boolean {
  return ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

/** k8s.io/utils/net IsIPv6String: parses and is not an IPv4 address. */
export function isIPv6String(s: string): boolean {
  const ip = parseIPSloppy(s);
  return ip !== undefined && !isIPv4Bytes(ip);
}

export function isValidIP(path: string, value: string): FieldError[] {
  return parseIPSloppy(value)
    ? []
    : [fieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

export function isValidIPv4Address(path: string, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  return ip && isIPv4Bytes(ip) ? [] : [fieldError.invalid(path, value, 'must be a valid IPv4 address')];
}

export function isValidIPv6Address(path: string, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  return ip && !isIPv4Bytes(ip) ? [] : [fieldError.invalid(path, value, 'must be a valid IPv6 address')];
}

export function isValidCIDR(path: string, value: string): FieldError[] {
  const slash = value.indexOf('/');
  const ip = slash < 0 ? undefined : parseIPSloppy(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  const max = ip && value.slice(0, slash).includes(':') ? 128 : 32;
  if (ip && /^[0-9]{1,3}$/.test(bits) && Number(bits) <= max) return [];
  return [fieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}

/**
 * Addresses that make no sense as a service backend or an external IP: unspecified, loopback, link-local
 * unicast and link-local multicast (kube's ValidateNonSpecialIP, used by Endpoints, EndpointSlices and
 * Service externalIPs).
 */
export function validateNonSpecialIP(path: string, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [fieldError.invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = isIPv4Bytes(ip);
  const b = v4 ? ip.subarray(12) : ip;
  const unspecified = b.every((x) => x === 0);
  const loopback = v4 ? b[0] === 127 : b.subarray(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80;
  const linkLocalMulticast = v4
    ? b[0] === 224 && b[1] === 0 && b[2] === 0
    : b[0] === 0xff && (b[1] & 0x0f) === 2;
  if (unspecified) errs.push(fieldError.invalid(path, value, `may not be unspecified (${value})`));
  if (loopback)
    errs.push(fieldError.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast)
    errs.push(
      fieldError.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'),
    );
  if (linkLocalMulticast) {
    errs.push(
      fieldError.invalid(
        path,
        value,
        'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      ),
    );
  }
  return errs;
}

export const inclusiveRangeError = (lo: number, hi: number): string =>
  `must be between ${lo} and ${hi}, inclusive`;

/** Messages for a TCP/UDP/SCTP port number. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** Messages for an IANA_SVC_NAME: at most 15 of [-a-z0-9], a letter, no '--', no dash at either end. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  else if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** A port given as a number or an IANA service name (targetPort, probes): kube's ValidatePortNumOrName. */
export function validatePortNumOrName(path: string, port: unknown): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  const name = typeof port === 'string' ? port : '';
  return isValidPortName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** A fully qualified domain name (a trailing dot allowed): at least two labels. */
export function isFullyQualifiedDomainName(path: string, value: string): FieldError[] {
  if (value.length === 0) return [fieldError.required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return subdomain.map((msg) => fieldError.invalid(path, name, msg));
  const labels = name.split('.');
  if (labels.length < 2)
    return [
      fieldError.invalid(path, name, 'should be a domain with at least two segments separated by dots'),
    ];
  return labels.flatMap((label) => isDNS1123Label(label).map((msg) => fieldError.invalid(path, label, msg)));
}
