/**
 * Go's `%q` (strconv.Quote) for messages kube builds with it: field paths in strict decoding errors and
 * offending values in field.Error text. JSON.stringify differs for control and non-printable characters.
 */

const plainAscii = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

const named: Record<number, string> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
  0x22: '\\"',
  0x5c: '\\\\',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

export function goQuote(s: string): string {
  if (plainAscii.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const esc = named[cp];
    if (esc !== undefined) out += esc;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff)
      out += '\ufffd'; // a lone surrogate reaches Go as U+FFFD
    else if (printable.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}
