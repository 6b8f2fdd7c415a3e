/** A CRD's versions list and status.storedVersions, with kube's rules and messages. */
import { fieldError, type FieldError } from '../../api/index.js';
import type { InternalVersion } from './internal.js';

const maxDeprecationWarning = 256;
const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** kube's rules for a version's deprecationWarning: only when deprecated, short, printable. */
export function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning);
  if (bytes > maxDeprecationWarning) errs.push(`must be <= ${maxDeprecationWarning} characters long`);
  if (bytes === 0) errs.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    if (!printable.test(ch)) {
      // Go reports the byte offset of the rune; a control character is never printable, so it is this one
      errs.push(
        `must only contain printable UTF-8 characters; non-printable character found at index ${offset}`,
      );
      break;
    }
    offset += Buffer.byteLength(ch);
  }
  if (/[\uD800-\uDFFF]/.test(warning.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')))
    errs.push('must only contain printable UTF-8 characters');
  return errs;
}

/** Names unique, exactly one storage version: kube reports both against the whole list. */
export function versionListErrors(versions: InternalVersion[], value: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = versions.map((v) => v.name);
  if (new Set(names).size !== names.length)
    errs.push(fieldError.invalid(path, value, 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1)
    errs.push(fieldError.invalid(path, value, 'must have exactly one version marked as storage version'));
  return errs;
}

/** Every stored version must still be a version, and the storage version must be among them. */
export function validateStoredVersions(
  stored: string[] | undefined,
  versions: InternalVersion[],
  path: string,
): FieldError[] {
  const list = stored ?? [];
  if (list.length === 0) return [fieldError.invalid(path, list, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  list.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name))
      errs.push(fieldError.invalid(path, list, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining)
    errs.push(fieldError.invalid(`${path}[${i}]`, v, 'must appear in spec.versions'));
  return errs;
}
