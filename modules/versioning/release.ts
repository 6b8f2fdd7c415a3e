/** Kubernetes releases ("1.32"): the one this server serves, and their order. */
import { servedRelease as served } from '../api/index.js';

export interface Release {
  major: number;
  minor: number;
}

/** The Kubernetes release whose API (and feature gates) this server follows. */
export const servedRelease: Release = { major: served.major, minor: served.minor };

/** "1.22" → {1, 22}; throws on anything else (definitions are data written by us, so a typo is a bug). */
export function parseRelease(text: string): Release {
  const m = /^(\d+)\.(\d+)$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a release (major.minor)`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** < 0 when `a` is older than `b`. */
export function compareReleases(a: Release, b: Release): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** `release` has happened by `current` (it is the current release or an older one). */
export function reached(release: string, current: Release = servedRelease): boolean {
  return compareReleases(parseRelease(release), current) <= 0;
}
