/** What Go's encoding of an ObjectMeta leaves out, for metadata kube decodes and writes back. */
import { isPlainObject } from '../api/index.js';

/** ObjectMeta's fields are all omitempty: Go leaves out empty strings, maps and lists, and zero numbers. */
export function dropEmptyMetaFields(meta: Record<string, unknown>): void {
  for (const key in meta) {
    const v = meta[key];
    const empty =
      v === '' ||
      v === 0 ||
      v === null ||
      (Array.isArray(v) && v.length === 0) ||
      (isPlainObject(v) && Object.keys(v).length === 0);
    // a pointer field keeps its zero value
    if (empty && !(key === 'deletionGracePeriodSeconds' && v === 0)) delete meta[key];
  }
}
