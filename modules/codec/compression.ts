/**
 * Response compression as kube-apiserver does it (feature gate APIResponseCompression): gzip at level 1 (the
 * least CPU for nearly the same ratio), only when the client accepts gzip and the body is over 128 KiB —
 * smaller bodies cost more to compress than they save.
 */
import { gzipSync } from 'node:zlib';

export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** true when an Accept-Encoding header lists gzip (and does not refuse it with q=0) */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const value of values) {
    for (const item of value.split(',')) {
      const [coding, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
      if (coding !== 'gzip') continue;
      const q = params.find((p) => p.startsWith('q='));
      return q === undefined || Number(q.slice(2)) > 0;
    }
  }
  return false;
}

/** The body gzipped when it is worth it, else undefined. */
export function gzipIfLarge(body: Buffer): Buffer | undefined {
  return body.length > GZIP_THRESHOLD_BYTES ? gzipSync(body, { level: 1 }) : undefined;
}
