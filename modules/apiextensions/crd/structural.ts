/**
 * kube's structural-schema rules (apiextensions-apiserver's schema.ValidateStructural): every node has a
 * type (unless int-or-string or preserve-unknown-fields), value validations (allOf, anyOf, oneOf, not) only
 * restrict what the structural part already declares, and metadata at the root holds nothing of its own.
 * The errors come sorted by their text, as kube sorts them.
 */
import { fieldError, formatFieldError, type FieldError } from '../../api/index.js';
import { compilePattern } from './pattern.js';
import {
  child,
  has,
  index,
  isRaw,
  key,
  nonEmptyList,
  schemaList,
  schemaMap,
  someNested,
  subSchema,
  typeOf,
  type Raw,
} from './schema-walk.js';

type Level = 'root' | 'item' | 'field';

const metaLevelMessage: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/**
 * The reason kube cannot even build a structural schema from `s` (its NewStructural), or undefined. kube
 * shows it only when the other schema checks found nothing.
 */
export function structuralBuildError(s: Raw): string | undefined {
  if (typeof s.id === 'string' && s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (typeof s.$schema === 'string' && s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (typeof s.$ref === 'string' && s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (isRaw(s.patternProperties) && Object.keys(s.patternProperties).length > 0)
    return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (isRaw(s.dependencies) && Object.keys(s.dependencies).length > 0)
    return "OpenAPIV3Schema 'dependencies' is not supported";
  if (has(s, 'additionalItems')) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  let nestedError: string | undefined;
  someNested(s, (n) => (nestedError = structuralBuildError(n)) !== undefined);
  return nestedError;
}

/** kube's ValidateStructural: invariants, then completeness of the value validations, sorted. */
export function validateStructural(schema: Raw, path: string): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  const text = new Map(errs.map((e) => [e, formatFieldError(e)]));
  return errs.sort((a, b) => (text.get(a)! < text.get(b)! ? -1 : text.get(a)! > text.get(b)! ? 1 : 0));
}

function invariants(s: Raw, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeOf(s);
  const items = subSchema(s, 'items');
  if (type === 'array' && !items) errs.push(fieldError.required(child(path, 'items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', child(path, 'items')));
  const props = schemaMap(s, 'properties');
  for (const [k, v] of props) errs.push(...invariants(v, 'field', key(child(path, 'properties'), k)));
  if (has(s, 'additionalProperties')) {
    if (lvl === 'root')
      errs.push(fieldError.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    const ap = subSchema(s, 'additionalProperties');
    if (ap) errs.push(...invariants(ap, 'field', child(path, 'additionalProperties')));
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve)
    errs.push(
      fieldError.invalid(
        child(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (intOrString && embedded)
    errs.push(
      fieldError.invalid(
        child(path, 'x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );

  errs.push(...valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), path));

  if (embedded && type !== 'object') {
    const msg = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(
      type
        ? fieldError.invalid(child(path, 'type'), type, msg)
        : fieldError.required(child(path, 'type'), msg),
    );
  } else if (!type && !intOrString && !preserve) {
    errs.push(fieldError.required(child(path, 'type'), metaLevelMessage[lvl]));
  }
  if (embedded && has(s, 'additionalProperties'))
    errs.push(
      fieldError.forbidden(
        child(path, 'additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  if (lvl === 'root' && type && type !== 'object')
    errs.push(fieldError.invalid(child(path, 'type'), type, 'must be object at the root'));

  const checkMetadata = lvl === 'root' || embedded;
  const propsOf = new Map(props);
  for (const name of ['kind', 'apiVersion']) {
    const p = propsOf.get(name);
    if (p && checkMetadata && typeOf(p) !== 'string')
      errs.push(
        fieldError.invalid(child(key(child(path, 'properties'), name), 'type'), typeOf(p), 'must be string'),
      );
  }
  const metadata = propsOf.get('metadata');
  if (metadata)
    errs.push(
      ...metadataInvariants(metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata')),
    );

  if (embedded && !preserve && props.length === 0)
    errs.push(
      fieldError.required(
        child(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  return errs;
}

/**
 * At the root, metadata may only name `name` and `generateName` (with any schema); the rest of ObjectMeta
 * is implied, so anything else (a description, required, x-kubernetes-validations...) is refused.
 */
function metadataInvariants(s: Raw, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && typeOf(s) !== 'object')
    errs.push(fieldError.invalid(child(path, 'type'), typeOf(s), 'must be object'));
  if (lvl !== 'root') return errs;
  const props = isRaw(s.properties) ? Object.keys(s.properties) : [];
  const onlyNames = props.every((p) => p === 'name' || p === 'generateName');
  const rest = Object.entries(s).filter(([k, v]) => {
    // example and externalDocs are documentation kube's structural form does not keep
    if (['type', 'default', 'example', 'externalDocs'].includes(k) || v === undefined || v === null)
      return false;
    if (k === 'properties') return !onlyNames && props.length > 0;
    return !isZero(v);
  });
  if (rest.length > 0)
    errs.push(
      fieldError.forbidden(
        path,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  return errs;
}

/** Go's zero value of a decoded JSONSchemaProps field: kube cannot tell it from an absent one. */
function isZero(v: unknown): boolean {
  if (v === false || v === '' || v === 0) return true;
  return Array.isArray(v) && v.length === 0;
}

/** `anyOf: [{type: integer}, {type: string}]`, the int-or-string form kube generates, allowed as it is. */
function isIntOrStringAnyOf(s: Raw): boolean {
  const anyOf = s.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  return ['integer', 'string'].every((t, i) => {
    const e = anyOf[i];
    return isRaw(e) && e.type === t && Object.keys(e).every((k) => k === 'type' || isZero(e[k]));
  });
}

function isIntOrStringAllOf(s: Raw): boolean {
  const first = schemaList(s, 'allOf')[0];
  return first !== undefined && isIntOrStringAnyOf(first);
}

function valueValidation(
  v: Raw,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf)
    schemaList(v, 'anyOf').forEach((x, i) => errs.push(...nested(x, false, index(child(path, 'anyOf'), i))));
  schemaList(v, 'allOf').forEach((x, i) =>
    errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, index(child(path, 'allOf'), i))),
  );
  schemaList(v, 'oneOf').forEach((x, i) => errs.push(...nested(x, false, index(child(path, 'oneOf'), i))));
  const not = subSchema(v, 'not');
  if (not) errs.push(...nested(not, false, child(path, 'not')));
  if (typeof v.pattern === 'string' && v.pattern) {
    const err = compilePattern(v.pattern);
    if (err)
      errs.push(
        fieldError.invalid(
          child(path, 'pattern'),
          v.pattern,
          `must be a valid regular expression, but isn't: ${err}`,
        ),
      );
  }
  return errs;
}

const forbiddenInNested: [string, (v: unknown) => boolean, string][] = [
  ['default', (v) => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['title', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['description', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['nullable', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', nonEmptyList, 'must be empty to be structural'],
  ['x-kubernetes-list-type', (v) => typeof v === 'string', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', (v) => typeof v === 'string', 'must be undefined to be structural'],
  ['x-kubernetes-validations', nonEmptyList, 'must be empty to be structural'],
];

/** A schema inside allOf/anyOf/oneOf/not: it may only validate, never declare. */
function nested(v: Raw, skipAnyOf: boolean, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, path);
  const items = subSchema(v, 'items');
  if (items) errs.push(...nested(items, false, child(path, 'items')));
  for (const [k, p] of schemaMap(v, 'properties'))
    errs.push(...nested(p, false, key(child(path, 'properties'), k)));
  if (typeOf(v)) errs.push(fieldError.forbidden(child(path, 'type'), 'must be empty to be structural'));
  // additionalProperties: false is no schema at all for kube here
  if (isRaw(v.additionalProperties) || v.additionalProperties === true)
    errs.push(
      fieldError.forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'),
    );
  for (const [name, set, msg] of forbiddenInNested)
    if (set(v[name])) errs.push(fieldError.forbidden(child(path, name), msg));
  if (isRaw(v.properties) && 'metadata' in v.properties)
    errs.push(
      fieldError.forbidden(
        key(child(path, 'properties'), 'metadata'),
        'must not be specified in a nested context',
      ),
    );
  return errs;
}

/**
 * What a value validation names must exist in the structural schema. kube checks this from the root's
 * value validations only, following their items and properties.
 */
function completeness(v: Raw, s: Raw | undefined, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const visit = (x: Raw | undefined, p: string): void => {
    if (x) errs.push(...nestedCompleteness(x, s, sPath, p));
  };
  visit(subSchema(v, 'not'), child(vPath, 'not'));
  schemaList(v, 'allOf').forEach((x, i) => visit(x, index(child(vPath, 'allOf'), i)));
  schemaList(v, 'anyOf').forEach((x, i) => visit(x, index(child(vPath, 'anyOf'), i)));
  schemaList(v, 'oneOf').forEach((x, i) => visit(x, index(child(vPath, 'oneOf'), i)));
  return errs;
}

function nestedCompleteness(v: Raw, s: Raw | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [fieldError.required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  const items = subSchema(v, 'items');
  if (items)
    errs.push(
      ...nestedCompleteness(items, subSchema(s, 'items'), child(sPath, 'items'), child(vPath, 'items')),
    );
  const sProps = isRaw(s.properties) ? s.properties : {};
  for (const [k, p] of schemaMap(v, 'properties')) {
    const sp = sProps[k];
    const spPath = key(child(sPath, 'properties'), k);
    const vpPath = key(child(vPath, 'properties'), k);
    if (!isRaw(sp)) errs.push(fieldError.required(spPath, `because it is defined in ${vpPath}`));
    else errs.push(...nestedCompleteness(p, sp, spPath, vpPath));
  }
  return errs;
}
