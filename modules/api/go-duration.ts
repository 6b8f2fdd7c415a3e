/** Go's time.Duration as kube's flags and config files write it: parsed, and printed as Go prints it. */
const goUnits: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds; throws Go's message for a malformed value. */
export function parseGoDuration(value: string): number {
  const quoted = JSON.stringify(value);
  let s = value;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration ${quoted}`);
  let ms = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') throw new Error(`time: invalid duration ${quoted}`);
    s = s.slice(m[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = goUnits[unit];
    if (scale === undefined)
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    ms += Number(`${m[1] || '0'}.${m[2] || '0'}`) * scale;
  }
  return sign * ms;
}

/** Go's Duration.String(): `1h0m0s`, `1m30s`, `30s`, `1.5s`, `250ms`, `0s`. */
export function goDurationString(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) {
    if (rest >= 1) return `${sign}${trim(rest)}ms`;
    if (rest >= 1e-3) return `${sign}${trim(rest * 1e3)}µs`;
    return `${sign}${trim(rest * 1e6)}ns`;
  }
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${trim(rest / 1000)}s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

/** a number without trailing zeros (Go prints 1.5s, not 1.500s) */
function trim(n: number): string {
  return String(Number(n.toFixed(9)));
}
