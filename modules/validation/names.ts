/**
 * Name and key format rules with kube's exact message strings (apimachinery util/validation). Each check
 * returns a list of messages, empty when the value is valid; callers wrap them into FieldErrors.
 * Lengths are counted in UTF-8 bytes, as Go's len() does.
 */

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

/** kube's RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')` (double spaces included). */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

const anchored = (fmt: string): RegExp => new RegExp(`^(?:${fmt})$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const dns1123LabelMaxLength = 63;
const dns1123LabelRegexp = anchored(dns1123LabelFmt);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const dns1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = anchored(dns1123SubdomainFmt);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRegexp = anchored(dns1035LabelFmt);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    // a valid subdomain that is not a valid label (length already reported) can only have dots
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1035LabelRegexp.test(value))
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** Names used as a URL path segment (and storage key) may not be '.' or '..' nor contain '/' or '%'. */
export function isValidPathSegmentName(name: string): string[] {
  for (const illegal of ['.', '..']) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** A generateName prefix: an appended suffix could make '.' valid, so only the substrings are checked. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = anchored(qualifiedNameFmt);

/** Label keys, annotation keys (lower-cased first), finalizer names: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((msg) => `prefix part ${msg}`));
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > qualifiedNameMaxLength)
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const labelValueMaxLength = 63;
const labelValueRegexp = anchored(labelValueFmt);

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRegexp.test(value))
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** kube's ValidateNameFunc: `prefix` is true when validating metadata.generateName. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

export type NameRule = 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment';

/**
 * A generateName may end in '-' (the random suffix follows it). kube masks that by replacing the last two
 * characters with 'a' (yes, two: the character before the dash is dropped too), then runs the full rule.
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, -2)}a`;
  return name;
}

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Service names: a DNS-1035 label (they become DNS names and environment variable prefixes). */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

export const nameIsPathSegment: ValidateNameFunc = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

export function nameValidator(rule: NameRule): ValidateNameFunc {
  switch (rule) {
    case 'dns1123Subdomain':
      return nameIsDNSSubdomain;
    case 'dns1123Label':
      return nameIsDNSLabel;
    case 'dns1035Label':
      return nameIsDNS1035Label;
    case 'pathSegment':
      return nameIsPathSegment;
  }
}
