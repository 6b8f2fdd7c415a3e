/**
 * metav1.Duration as KubeletConfiguration files write it: Go's time.ParseDuration syntax (`10s`, `1m30s`, `1.5h`,
 * `300ms`, `-2s`, `0`), read into milliseconds. Units below a millisecond are kept as fractions.
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds, or undefined when `text` is not a Go duration. */
export function goDurationMs(text: string): number | undefined {
  const m = /^([+-]?)(.*)$/s.exec(text)!;
  const sign = m[1] === '-' ? -1 : 1;
  const rest = m[2];
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  let consumed = 0;
  for (const part of rest.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    if (part.index !== consumed) return undefined;
    consumed += part[0].length;
    total += Number(part[1]) * UNIT_MS[part[2]];
  }
  return consumed === rest.length ? sign * total : undefined;
}
