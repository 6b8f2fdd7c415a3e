// kube's format library (since 1.31): format.<name>() and format.named(name) give a format whose
// validate(string) is optional.none() when the string conforms, else optional.of(the list of errors).
import { Optional, type Environment } from '@marcbachmann/cel-js';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
} from '../../validation/index.js';
import { parseURL } from './url.js';

export class NamedFormat {
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
  ) {}
}

const prefixed = (f: (s: string) => string[]) => (s: string) => f(maskTrailingDash(s));
// strfmt's patterns: hyphens optional, any case
const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Go's time.Parse("2006-01-02"): the day must exist in its month. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

const formats: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: prefixed(isDNS1123Label),
  dns1123SubdomainPrefix: prefixed(isDNS1123Subdomain),
  dns1035LabelPrefix: prefixed(isDNS1035Label),
  labelValue: isValidLabelValue,
  uri: (s) => {
    const u = parseURL(s);
    return typeof u === 'string' ? [u] : [];
  },
  uuid: (s) => (uuid.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64']),
  date: (s) => (isDate(s) ? [] : ['invalid date']),
  datetime: (s) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) &&
    !Number.isNaN(Date.parse(s))
      ? []
      : ['invalid datetime'],
};

class FormatNamespace {}

export function registerFormat(env: Environment): void {
  env.registerType('kubernetes.NamedFormat', NamedFormat);
  env.registerType('FormatNamespace', FormatNamespace);
  env.registerConstant('format', 'FormatNamespace', new FormatNamespace());
  for (const [name, check] of Object.entries(formats)) {
    const f = new NamedFormat(name, check);
    env.registerFunction(`FormatNamespace.${name}(): kubernetes.NamedFormat`, () => f);
  }
  env.registerFunction(
    'FormatNamespace.named(string): optional<kubernetes.NamedFormat>',
    (_: unknown, name: string) =>
      name in formats ? Optional.of(new NamedFormat(name, formats[name])) : Optional.none(),
  );
  env.registerFunction(
    'kubernetes.NamedFormat.validate(string): optional<list<string>>',
    (f: NamedFormat, s: string) => {
      const errs = f.check(s);
      return errs.length === 0 ? Optional.none() : Optional.of(errs);
    },
  );
}
