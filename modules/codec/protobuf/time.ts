/**
 * metav1.Time and MicroTime on the wire: a Timestamp message {1: seconds, 2: nanos}. An empty message is
 * Go's zero time, which kube's JSON shows as null. Time keeps whole seconds; MicroTime keeps microseconds.
 */
import { malformed } from './wire.js';

/** Unix seconds of Go's zero time, 0001-01-01T00:00:00Z */
export const zeroTimeSeconds = -62135596800n;

/** Unix seconds of 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years RFC 3339 can write */
const minSeconds = -62167219200n;
const maxSeconds = 253402300800n;

export interface Timestamp {
  seconds: bigint;
  nanos: number;
}

export function isZeroTimestamp(t: Timestamp): boolean {
  return t.seconds === zeroTimeSeconds && t.nanos === 0;
}

/** Go normalizes nanos outside [0, 1e9) into the seconds. */
function normalize(t: Timestamp): Timestamp {
  const carry = Math.floor(t.nanos / 1e9);
  return { seconds: t.seconds + BigInt(carry), nanos: t.nanos - carry * 1e9 };
}

function isoSeconds(seconds: bigint): string {
  if (seconds < minSeconds || seconds >= maxSeconds)
    throw malformed('Time.MarshalJSON: year outside of range [0,9999]');
  const d = new Date(Number(seconds) * 1000);
  const year = d.getUTCFullYear();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** kube reads whole seconds only for Time (it drops the nanos, matching its JSON). */
export function formatTime(t: Timestamp): string | null {
  if (t.seconds === zeroTimeSeconds) return null;
  return `${isoSeconds(t.seconds)}Z`;
}

export function formatMicroTime(t: Timestamp): string | null {
  const n = normalize(t);
  if (isZeroTimestamp(n)) return null;
  return `${isoSeconds(n.seconds)}.${String(Math.floor(n.nanos / 1000)).padStart(6, '0')}Z`;
}

const rfc3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** An RFC 3339 time (any precision, any offset) as a Timestamp; undefined when it is not one. */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  if (d.getUTCDate() !== day) return undefined;
  d.setUTCHours(hour, minute, second, 0);
  let seconds = BigInt(d.getTime() / 1000);
  if (m[9]) {
    const offset = (Number(m[10]) * 60 + Number(m[11])) * 60;
    seconds -= BigInt(m[9] === '+' ? offset : -offset);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds, nanos };
}
