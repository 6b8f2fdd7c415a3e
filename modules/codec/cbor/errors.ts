/** CBOR bodies kube's decoder refuses become 400 Bad Request, with the text kube's CBOR library gives. */
import { ApiError } from '../../api/index.js';

/**
 * kube reads the apiVersion and kind of a body (a lax decode of the outer map) before the object itself, so
 * errors found on that first pass (malformed input, limits, the outer map's keys) carry this prefix.
 */
const typeMetaPrefix = 'unable to determine group/version/kind: ';

export class CborDecodeError extends ApiError {
  /** the error without kube's prefix, as the CBOR library words it */
  readonly detail: string;

  constructor(detail: string, beforeTypeMeta = false) {
    super(400, 'BadRequest', beforeTypeMeta ? typeMetaPrefix + detail : detail);
    this.detail = detail;
  }
}

/** Names of the CBOR major types (and of tag content types) as the library prints them. */
export const majorTypeNames = [
  'positive integer',
  'negative integer',
  'byte string',
  'UTF-8 text string',
  'array',
  'map',
  'tag',
  'primitives',
] as const;
