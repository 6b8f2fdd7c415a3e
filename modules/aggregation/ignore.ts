import { ApiError } from '../api/index.js';

/** A write's failure of one of these reasons is nothing to retry: the next event brings the object back. */
export function ignore(...reasons: string[]): (e: unknown) => void {
  return (e) => {
    if (e instanceof ApiError && reasons.includes(e.reason)) return;
    throw e;
  };
}
