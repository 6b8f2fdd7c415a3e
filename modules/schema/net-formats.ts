/**
 * Parsers for the network formats a CRD schema may name, as Go's net and net/url packages read them (kube's
 * format checks call them): IP addresses (with and without the leading zeros Go ≥ 1.17 refuses), CIDRs,
 * MAC addresses, request URIs and mail addresses.
 */

/** Go's net.ParseIP for dotted IPv4 (leading zeros only when sloppy, as k8s.io/utils/net allows). */
export function parseIPv4(s: string, sloppy: boolean): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || !/^[0-9]+$/.test(p)) return false;
    if (!sloppy && p.length > 1 && p[0] === '0') return false;
    if (Number(p) > 255) return false;
  }
  return true;
}

/** Go's IPv6 parser: hex groups, one `::`, an optional dotted IPv4 tail; no zone. */
export function parseIPv6(s: string, sloppy: boolean): boolean {
  if (s.length === 0) return false;
  let bytes = 0;
  let ellipsis = false;
  let i = 0;
  if (s.startsWith('::')) {
    ellipsis = true;
    i = 2;
    if (i === s.length) return true;
  }
  while (i < s.length) {
    let j = i;
    while (j < s.length && j - i < 5 && /[0-9a-fA-F]/.test(s[j])) j++;
    if (j === i) return false;
    if (j < s.length && s[j] === '.') {
      // an IPv4 tail takes the last four bytes
      if (!ellipsis && bytes !== 12) return false;
      if (bytes + 4 > 16) return false;
      if (!parseIPv4(s.slice(i), sloppy)) return false;
      bytes += 4;
      i = s.length;
      break;
    }
    if (j - i > 4) return false;
    bytes += 2;
    i = j;
    if (i === s.length) break;
    if (s[i] !== ':' || i + 1 === s.length) return false;
    i++;
    if (s[i] === ':') {
      if (ellipsis) return false;
      ellipsis = true;
      i++;
      if (i === s.length) break;
    }
    if (bytes >= 16) return false;
  }
  if (bytes > 16) return false;
  return ellipsis ? bytes < 16 : bytes === 16;
}

export function parseIP(s: string, sloppy: boolean): boolean {
  return s.includes(':') ? parseIPv6(s, sloppy) : parseIPv4(s, sloppy);
}

/** Go's net.ParseCIDR (k8s.io/utils/net's sloppy variant allows leading zeros in the address). */
export function parseCIDR(s: string, sloppy: boolean): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  const v4 = !addr.includes(':');
  if (!(v4 ? parseIPv4(addr, sloppy) : parseIPv6(addr, sloppy))) return false;
  if (!/^[0-9]+$/.test(mask) || mask.length > 8) return false;
  return Number(mask) <= (v4 ? 32 : 128);
}

/** Go's net.ParseMAC: 6, 8 or 20 octets as xx:xx / xx-xx, or groups of four hex digits with dots. */
export function parseMAC(s: string): boolean {
  if (s.length < 14) return false;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    const sep = s[2];
    for (let i = 0; i < s.length; i += 3) {
      if (!/^[0-9a-fA-F]{2}$/.test(s.slice(i, i + 2))) return false;
      if (i + 2 < s.length && s[i + 2] !== sep) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = ((s.length + 1) * 2) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0; i < s.length; i += 5) {
      if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i, i + 4))) return false;
      if (i + 4 < s.length && s[i + 4] !== '.') return false;
    }
    return true;
  }
  return false;
}

/** percent escapes in a URL part must be complete (`%zz` and a trailing `%` are errors in Go). */
function escapesValid(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (!/^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) return false;
  }
  return true;
}

/** A host[:port] as Go's url parser accepts it. */
function hostValid(host: string): boolean {
  let h = host;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return false;
    const rest = h.slice(end + 1);
    if (rest !== '' && !/^:[0-9]*$/.test(rest)) return false;
    return true;
  }
  const colon = h.lastIndexOf(':');
  if (colon >= 0) {
    if (!/^[0-9]*$/.test(h.slice(colon + 1))) return false;
    h = h.slice(0, colon);
  }
  // Go refuses a few characters in a host name outright
  if (/[\s"<>\\^`{|}]/.test(h)) return false;
  return escapesValid(h);
}

/** Go's url.ParseRequestURI succeeding (govalidator.IsRequestURI). */
export function isRequestURI(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (s === '*') return true;
  let rest = s;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
  if (scheme) rest = s.slice(scheme[0].length);
  else if (/^[^/?#]*:/.test(s) && s[0] !== '/') return false;
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) {
    // opaque (mailto:x) is fine with a scheme; a request URI without one must be a path
    return scheme !== null && rest !== '';
  }
  if (scheme && rest.startsWith('//')) {
    const authEnd = rest.indexOf('/', 2);
    const authority = authEnd < 0 ? rest.slice(2) : rest.slice(2, authEnd);
    const at = authority.lastIndexOf('@');
    const host = at < 0 ? authority : authority.slice(at + 1);
    if (at >= 0 && !escapesValid(authority.slice(0, at))) return false;
    if (!hostValid(host)) return false;
    rest = authEnd < 0 ? '' : rest.slice(authEnd);
  }
  return escapesValid(rest);
}

const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\u{10ffff}]";
const dotAtom = `${atext}+(?:\\.${atext}+)*`;
const quoted = '"(?:[^"\\\\\\r\\n]|\\\\.)*"';
const addrSpec = `(?:${dotAtom}|${quoted})@(?:${dotAtom}|\\[[^\\[\\]\\\\]*\\])`;
const displayName = `(?:${atext}|[ \\t.]|${quoted})*`;
const mailAddress = new RegExp(`^\\s*(?:${addrSpec}|${displayName}<${addrSpec}>)\\s*$`, 'u');

/** Go's net/mail.ParseAddress accepting the text as one address: `a@b`, `Name <a@b>`, quoted parts. */
export function isMailAddress(s: string): boolean {
  return mailAddress.test(s);
}
