/**
 * kube's max-in-flight filter (k8s.io/apiserver filters WithMaxInFlightLimit): at most
 * `--max-requests-inflight` get/list and `--max-mutating-requests-inflight` other requests are served at once;
 * one more answers 429 with `Retry-After: 1`. Watches (long-running) are not counted; a `system:masters` user is
 * never refused. 0 means no limit.
 */
import { ApiError, type RequestInfo, type UserInfo } from '../api/index.js';

/** The slot a request holds until it has been served. */
export type InflightSlot = 'readOnly' | 'mutating' | undefined;

const PRIVILEGED_GROUP = 'system:masters';

export function tooManyRequests(): ApiError {
  return new ApiError(
    429,
    'TooManyRequests',
    'Too many requests, please try again later.',
    { retryAfterSeconds: 1 },
    { 'Retry-After': '1' },
  );
}

export class InflightLimiter {
  private readonly used = { readOnly: 0, mutating: 0 };
  private readonly limit: Record<'readOnly' | 'mutating', number>;

  constructor(maxReadOnly: number, maxMutating: number) {
    this.limit = { readOnly: maxReadOnly, mutating: maxMutating };
  }

  /** Takes a slot for the request, or throws 429 when its kind's are all taken. Watches take none. */
  admit(info: RequestInfo, user: UserInfo): InflightSlot {
    if (info.verb === 'watch') return undefined;
    const kind = info.verb === 'get' || info.verb === 'list' ? 'readOnly' : 'mutating';
    const limit = this.limit[kind];
    if (limit === 0) return undefined;
    if (this.used[kind] < limit) {
      this.used[kind]++;
      return kind;
    }
    if (user.groups.includes(PRIVILEGED_GROUP)) return undefined;
    throw tooManyRequests();
  }

  release(slot: InflightSlot): void {
    if (slot) this.used[slot]--;
  }

  /** in use now, by kind (for tests) */
  inUse(): { readOnly: number; mutating: number } {
    return { ...this.used };
  }
}
