/**
 * How flag values are read, as kube's pflag reads them: ports, counts, Go bools and durations, string slices,
 * webhook API versions. Each error names its flag.
 */
import { readFile } from 'node:fs/promises';

export class ConfigError extends Error {}

/** The text of a file a flag names; an error names the flag and the file, never the content. */
export async function readFlagFile(flag: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(
      `${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

export const text = (v: string) => v;
export const port = (v: string, flag: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${flag}: "${v}" is not a valid port`);
  return n;
};

export const count = (v: string, flag: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n > 2 ** 31 - 1)
    throw new ConfigError(`${flag}: "${v}" is not a non-negative integer`);
  return n;
};

/** Go's strconv.ParseBool, which kube's bool flags use */
export const boolean = (v: string, flag: string) => {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new ConfigError(`${flag}: "${v}" is not a boolean (true or false)`);
};

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** kube's (Go's) duration format: `300ms`, `30s`, `5m`, `1h30m`. */
export function parseDuration(v: string, flag: string): number {
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) {
    throw new ConfigError(`${flag}: "${v}" is not a duration (e.g. 30s, 5m, 1h30m)`);
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * durationUnits[p[2]], 0);
  if (ms <= 0) throw new ConfigError(`${flag}: must be positive`);
  return ms;
}

/** kube accepts `0` for durations that may be off */
export const durationOrZero = (v: string, flag: string) =>
  v === '0' || v === '0s' ? 0 : parseDuration(v, flag);

/** the TokenReview versions kube's token webhook speaks */
export const webhookVersion = (v: string, flag: string) => {
  if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConfigError(
    `${flag}: unsupported authentication webhook version "${v}", supported versions are "v1", "v1beta1"`,
  );
};

/** pgkube bounds a webhook review by kube's fixed 30s at most */
export const webhookTimeout = (v: string, flag: string) => {
  const ms = parseDuration(v, flag);
  if (ms > 30_000) throw new ConfigError(`${flag}: must be at most 30s`);
  return ms;
};

/** a string-slice flag's value: comma-separated items, none of them blank (kube: `empty value in "<flag>"`) */
export const commaList = (v: string, flag: string) => {
  const items = v.split(',').map((i) => i.trim());
  if (items.some((i) => i === '')) throw new ConfigError(`${flag}: empty value in "${v}"`);
  return items;
};

/** the SubjectAccessReview versions kube's authorization webhook speaks */
export const sarVersion = (v: string, flag: string) => {
  if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConfigError(
    `${flag}: unsupported authorization webhook version "${v}", supported versions are "v1", "v1beta1"`,
  );
};

/** `NAMESPACE/NAME[:PORT]`: a Service, as an APIService names it (port default 443) */
export const serviceReference = (v: string, flag: string) => {
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z]([-a-z0-9]*[a-z0-9])?)(?::(\d+))?$/.exec(v);
  if (!m) throw new ConfigError(`${flag}: "${v}" is not NAMESPACE/NAME[:PORT]`);
  const servicePort = m[5] === undefined ? 443 : port(m[5], flag);
  if (servicePort === 0) throw new ConfigError(`${flag}: port must be between 1 and 65535`);
  return { namespace: m[1], name: m[3], port: servicePort };
};

/** a list of paths: as a string slice, but an empty value is an empty list (kube: `--authorization-always-allow-paths=`) */
export const pathList = (v: string, flag: string) => (v === '' ? [] : commaList(v, flag));
