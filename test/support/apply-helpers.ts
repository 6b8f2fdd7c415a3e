/** Shared bits of the server-side apply specs: times, entry literals, and catching the ApiError thrown. */
import { ApiError } from '../../modules/api/index.js';

export const T1 = '2024-01-01T00:00:00Z';
export const T2 = '2024-01-02T00:00:00Z';
export const T3 = '2024-01-03T00:00:00Z';

/** A managedFields entry as kube writes it (no `time` when undefined). */
export const entry = (
  manager: string,
  operation: string,
  time: string | undefined,
  fieldsV1: unknown,
  more = {},
) => ({
  manager,
  operation,
  apiVersion: 'v1',
  ...(time ? { time } : {}),
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...more,
});

/** The ApiError `fn` throws (fails the test when it throws nothing). */
export function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}
