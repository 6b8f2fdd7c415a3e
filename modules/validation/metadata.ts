/**
 * ObjectMeta validation with kube's field paths and messages (apimachinery api/validation/objectmeta.go).
 * Like kube, validateObjectMeta expects generateName to have been turned into a name already; it still
 * checks generateName itself in the rule's prefix mode.
 */
import { fieldError, type FieldError } from '../api/index.js';
import { isPlainObject, type ObjectMeta } from '../api/index.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameValidator, type NameRule } from './names.js';

export const fieldImmutableErrorMsg = 'field is immutable';
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** total bytes of annotation keys and values */
export const totalAnnotationSizeLimitB = 256 * (1 << 10);
export const fieldManagerMaxLength = 128;
export const maxSubresourceNameLength = 256;

export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';
/** finalizer names without a '/' that core kinds accept */
export const standardFinalizers = ['kubernetes', finalizerOrphanDependents, finalizerDeleteDependents];

export interface ObjectMetaRules {
  namespaced: boolean;
  nameRule: NameRule;
  /**
   * Also apply the core API group's rule that a finalizer without '/' must be a standard one. Built-in core
   * kinds get it from their strategies (validateStandardFinalizers); CRDs and e.g. leases do not have it.
   */
  standardFinalizers?: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strMap = (v: unknown): [string, unknown][] => (isPlainObject(v) ? Object.entries(v) : []);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function validateObjectMeta(meta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  const errs: FieldError[] = [];
  const nameFn = nameValidator(rules.nameRule);
  const generateName = str(meta.generateName);
  if (generateName) {
    for (const msg of nameFn(generateName, true))
      errs.push(fieldError.invalid('metadata.generateName', generateName, msg));
  }
  const name = str(meta.name);
  if (!name) errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else for (const msg of nameFn(name, false)) errs.push(fieldError.invalid('metadata.name', name, msg));

  const namespace = str(meta.namespace);
  if (rules.namespaced) {
    if (!namespace) errs.push(fieldError.required('metadata.namespace'));
    else
      for (const msg of isDNS1123Label(namespace))
        errs.push(fieldError.invalid('metadata.namespace', namespace, msg));
  } else if (namespace) {
    errs.push(fieldError.forbidden('metadata.namespace', 'not allowed on this type'));
  }

  if (typeof meta.generation === 'number' && meta.generation < 0) {
    errs.push(fieldError.invalid('metadata.generation', meta.generation, isNegativeErrorMsg));
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  if (rules.standardFinalizers)
    errs.push(...validateStandardFinalizers(meta.finalizers, 'metadata.finalizers'));
  return errs;
}

export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of strMap(labels)) {
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(path, key, msg));
    for (const msg of isValidLabelValue(str(value))) errs.push(fieldError.invalid(path, value, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of strMap(annotations)) {
    // annotation keys follow the qualified-name rule, case-insensitively
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(fieldError.invalid(path, key, msg));
    total += Buffer.byteLength(key) + Buffer.byteLength(str(value));
  }
  if (total > totalAnnotationSizeLimitB) errs.push(fieldError.tooLong(path, totalAnnotationSizeLimitB));
  return errs;
}

/** Go's schema.ParseGroupVersion as FromAPIVersionAndKind uses it: a malformed apiVersion gives no version. */
function versionOf(apiVersion: string): string {
  if (!apiVersion) return '';
  const parts = apiVersion.split('/');
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) return parts[1];
  return '';
}

function groupOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  return parts.length === 2 ? parts[0] : '';
}

export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const item of list(refs)) {
    const ref = isPlainObject(item) ? item : {};
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const name = str(ref.name);
    const version = versionOf(apiVersion);
    if (!version)
      errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!kind) errs.push(fieldError.invalid(`${path}.kind`, kind, 'must not be empty'));
    if (!name) errs.push(fieldError.invalid(`${path}.name`, name, 'must not be empty'));
    if (!str(ref.uid)) errs.push(fieldError.invalid(`${path}.uid`, str(ref.uid), 'must not be empty'));
    // core/v1 Events may never own anything
    if (groupOf(apiVersion) === '' && version === 'v1' && kind === 'Event') {
      errs.push(fieldError.invalid(path, item, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${kind}/${name}`;
      if (firstController) {
        errs.push(
          fieldError.invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = list(finalizers).map(str);
  for (const name of names) {
    for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(path, name, msg));
  }
  if (names.includes(finalizerOrphanDependents) && names.includes(finalizerDeleteDependents)) {
    errs.push(
      fieldError.invalid(
        path,
        finalizers,
        `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`,
      ),
    );
  }
  return errs;
}

/** The core group's extra finalizer rule, reported per index: `metadata.finalizers[0]`. */
export function validateStandardFinalizers(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(finalizers).forEach((item, i) => {
    const name = str(item);
    if (!name.includes('/') && !standardFinalizers.includes(name)) {
      errs.push(
        fieldError.invalid(
          `${path}[${i}]`,
          name,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
    }
  });
  return errs;
}

/** A finalizer name as core kinds check it (Namespace spec.finalizers): qualified name, then the standard rule. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (!name.includes('/') && !standardFinalizers.includes(name)) {
    errs.push(
      fieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'),
    );
  }
  return errs;
}

/** Go's %#U for a code point unicode.IsPrint rejects (those are the only ones reported). */
const isPrintable = (ch: string): boolean => ch === ' ' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch);
const hexU = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

export function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > fieldManagerMaxLength)
    errs.push(fieldError.tooLong(path, fieldManagerMaxLength));
  let bytePos = 0;
  for (const ch of manager) {
    if (!isPrintable(ch)) {
      errs.push(
        fieldError.invalid(
          path,
          manager,
          `invalid character ${hexU(ch.codePointAt(0) ?? 0)} (at position ${bytePos})`,
        ),
      );
    }
    bytePos += Buffer.byteLength(ch);
  }
  return errs;
}

export function validateManagedFields(entries: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(entries).forEach((item, i) => {
    const entry = isPlainObject(item) ? item : {};
    const at = `${path}[${i}]`;
    const operation = str(entry.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(fieldError.invalid(`${at}.operation`, operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = str(entry.fieldsType);
    if (fieldsType && fieldsType !== 'FieldsV1') {
      errs.push(fieldError.invalid(`${at}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(str(entry.manager), `${at}.manager`));
    if (Buffer.byteLength(str(entry.subresource)) > maxSubresourceNameLength) {
      errs.push(fieldError.tooLong(`${at}.subresource`, maxSubresourceNameLength));
    }
  });
  return errs;
}

/** Go's %#v of a []string, as kube prints the offending finalizers. */
const goStringSlice = (items: string[]): string =>
  `[]string{${items.map((s) => JSON.stringify(s)).join(', ')}}`;

/** Timestamps compare as instants (Go compares metav1.Time values, not their spelling). */
function sameInstant(a: unknown, b: unknown): boolean {
  if (!a || !b) return !a && !b;
  return a === b || Date.parse(String(a)) === Date.parse(String(b));
}

const sameNumber = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null);

/**
 * Update rules for metadata (apimachinery ValidateObjectMetaAccessorUpdate). The caller also runs
 * validateObjectMeta on the new metadata. kube fills resourceVersion from the stored object before this runs
 * for kinds that allow unconditional updates; the generic store must do the same.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp) {
    const before = new Set(list(oldMeta.finalizers).map(str));
    const added = [...new Set(list(newMeta.finalizers).map(str))].filter((f) => !before.has(f)).sort();
    if (added.length > 0) {
      errs.push(
        fieldError.forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`,
        ),
      );
    }
  }
  if (!str(newMeta.resourceVersion)) {
    errs.push(
      fieldError.invalid(
        'metadata.resourceVersion',
        str(newMeta.resourceVersion),
        'must be specified for an update',
      ),
    );
  }
  const newGeneration = typeof newMeta.generation === 'number' ? newMeta.generation : 0;
  const oldGeneration = typeof oldMeta.generation === 'number' ? oldMeta.generation : 0;
  if (newGeneration < oldGeneration) {
    errs.push(fieldError.invalid('metadata.generation', newGeneration, 'must not be decremented'));
  }
  for (const field of ['name', 'namespace', 'uid']) {
    if (str(newMeta[field]) !== str(oldMeta[field])) {
      errs.push(fieldError.invalid(`metadata.${field}`, str(newMeta[field]), fieldImmutableErrorMsg));
    }
  }
  for (const field of ['creationTimestamp', 'deletionTimestamp']) {
    if (!sameInstant(newMeta[field], oldMeta[field])) {
      errs.push(fieldError.invalid(`metadata.${field}`, newMeta[field] ?? null, fieldImmutableErrorMsg));
    }
  }
  if (!sameNumber(newMeta.deletionGracePeriodSeconds, oldMeta.deletionGracePeriodSeconds)) {
    errs.push(
      fieldError.invalid(
        'metadata.deletionGracePeriodSeconds',
        newMeta.deletionGracePeriodSeconds ?? null,
        fieldImmutableErrorMsg,
      ),
    );
  }
  errs.push(...validateLabels(newMeta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(newMeta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateManagedFields(newMeta.managedFields, 'metadata.managedFields'));
  return errs;
}

/**
 * What kube's rest.BeforeUpdate carries over from the stored object before validation, so that clients can
 * omit these fields: uid when absent, creationTimestamp, deletionTimestamp, and deletionGracePeriodSeconds
 * when the client dropped it. Generation is the server's too.
 */
export function carryOverMetaForUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta): void {
  if (oldMeta.generation !== undefined) newMeta.generation = oldMeta.generation;
  else delete newMeta.generation;
  if (!newMeta.uid && oldMeta.uid) newMeta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) newMeta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) newMeta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds != null && newMeta.deletionGracePeriodSeconds == null) {
    newMeta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
}
