/**
 * metav1.Duration as KubeletConfiguration files write it: Go's time.ParseDuration syntax (`10s`, `1m30s`, `1.5h`,
 * `300ms`, `-2s`, `0`), read into milliseconds.
 */
import { parseGoDuration } from '../../modules/api/index.js';

/** Milliseconds, or undefined when `text` is not a Go duration. */
export function goDurationMs(text: string): number | undefined {
  try {
    return parseGoDuration(text);
  } catch {
    return undefined;
  }
}
