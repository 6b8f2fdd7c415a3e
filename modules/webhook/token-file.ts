/**
 * A bearer token kept in a file that is replaced as it rotates (a Pod's projected service-account token, a
 * kubeconfig's `tokenFile`): read at once the first time, then again at most once a minute (client-go's
 * cached file token source), in the background, the last good value serving meanwhile. Never logged.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** client-go re-reads a token file this often (cachingTokenSource's period) */
const REREAD_MS = 60_000;

interface Cached {
  token: string;
  readAt: number;
  reading?: Promise<void>;
}

const cache = new Map<string, Cached>();

/** The token `file` holds now; throws when it was never readable. */
export function fileToken(file: string, now = Date.now()): string {
  let cached = cache.get(file);
  if (!cached) {
    cached = { token: readFileSync(file, 'utf8').trim(), readAt: now };
    cache.set(file, cached);
  } else if (now - cached.readAt >= REREAD_MS && !cached.reading) {
    const entry = cached;
    entry.readAt = now;
    entry.reading = readFile(file, 'utf8')
      .then((text) => {
        if (text.trim()) entry.token = text.trim();
      })
      // a file between two writes: the previous token stays until the next try
      .catch(() => undefined)
      .finally(() => (entry.reading = undefined));
  }
  return cached.token;
}

/** Waits for a re-read under way (specs). */
export async function settledFileToken(file: string): Promise<string | undefined> {
  await cache.get(file)?.reading;
  return cache.get(file)?.token;
}
