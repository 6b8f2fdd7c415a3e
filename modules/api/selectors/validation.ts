/**
 * Label key and value rules (k8s.io/apimachinery util/validation in v1.32), with kube's exact messages.
 * They return the list of problems (empty when valid) so callers can join them the way kube does ("; ").
 */

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

export const labelValueMaxLength = 63;
const qualifiedNameMaxLength = 63;
const dns1123SubdomainMaxLength = 253;

/** kube's RegexError text, including its doubled space before "or". */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  for (let i = 0; i < examples.length; i++) {
    if (i > 0) out += ' or ';
    out += `'${examples[i]}', `;
  }
  return `${out}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

const emptyError = 'must be non-empty';

const qualifiedNameRegexMsg = regexError(
  qualifiedNameErrMsg,
  qualifiedNameFmt,
  'MyName',
  'my.name',
  '123-abc',
);
const labelValueRegexMsg = regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345');
const dns1123SubdomainRegexMsg = regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com');
const tooManySlashes = `a qualified name ${qualifiedNameRegexMsg} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;

/** Go measures strings in UTF-8 bytes. */
export function byteLength(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8');
  }
  return s.length;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored. */
function isQualifiedNamePart(s: string): boolean {
  const n = s.length;
  if (n === 0 || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(n - 1))) return false;
  for (let i = 1; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== 45 && c !== 95 && c !== 46) return false;
  }
  return true;
}

function isLowerAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
}

/** RFC 1123 subdomain syntax: dot-separated labels of [a-z0-9-], each starting and ending alphanumeric. */
function isDNS1123SubdomainSyntax(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  let start = 0;
  for (let i = 0; i <= n; i++) {
    if (i === n || s.charCodeAt(i) === 46) {
      if (i === start || !isLowerAlnum(s.charCodeAt(start)) || !isLowerAlnum(s.charCodeAt(i - 1)))
        return false;
      start = i + 1;
      continue;
    }
    const c = s.charCodeAt(i);
    if (!isLowerAlnum(c) && c !== 45) return false;
  }
  return true;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!isDNS1123SubdomainSyntax(value)) errs.push(dns1123SubdomainRegexMsg);
  return errs;
}

/** A label key / annotation key / finalizer-style name: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const slash = value.indexOf('/');
  let name = value;
  let errs: string[] | undefined;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) return [tooManySlashes];
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) {
      errs = [`prefix part ${emptyError}`];
    } else {
      const msgs = isDNS1123Subdomain(prefix);
      if (msgs.length > 0) errs = msgs.map((m) => `prefix part ${m}`);
    }
  }
  if (name.length === 0) (errs ??= []).push(`name part ${emptyError}`);
  else if (byteLength(name) > qualifiedNameMaxLength)
    (errs ??= []).push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!isQualifiedNamePart(name)) (errs ??= []).push(`name part ${qualifiedNameRegexMsg}`);
  return errs ?? [];
}

export function isValidLabelValue(value: string): string[] {
  if (value.length === 0) return [];
  let errs: string[] | undefined;
  if (byteLength(value) > labelValueMaxLength) errs = [maxLenError(labelValueMaxLength)];
  if (!isQualifiedNamePart(value)) (errs ??= []).push(labelValueRegexMsg);
  return errs ?? [];
}
