/**
 * kube's walk over a CRD schema (ValidateCustomResourceDefinitionOpenAPISchema): JSON-Schema features
 * Kubernetes does not support, `default` where pruning could not place it, the `x-kubernetes-*` markers'
 * consistency, and the static parts of `x-kubernetes-validations` (compiling the rules is CEL's job).
 */
import { fieldError, type FieldError } from '../../api/index.js';
import { validFieldPath } from './field-path.js';
import {
  child,
  has,
  index,
  isRaw,
  key,
  nonEmptyList,
  nonEmptyMap,
  schemaList,
  schemaMap,
  strOf,
  subSchema,
  typeOf,
  type Raw,
} from './schema-walk.js';

export const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedRuleReasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** What the walk carries down: kube's specStandardValidator state. */
export interface WalkState {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
}

/** The rules that an update relaxes when the stored CRD already broke them (kube's "ratcheting"). */
export interface SchemaRules {
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

const forbidDefaults = (w: WalkState, reason: string): WalkState => ({
  ...w,
  allowDefaults: false,
  disallowDefaultsReason: reason,
});

/** Checks of one node alone (kube's specStandardValidatorV3.validate). */
function validateNode(s: Raw, path: string, w: WalkState, rules: SchemaRules): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeOf(s);
  if (rules.requireValidPropertyType && type && !openapiV3Types.includes(type))
    errs.push(fieldError.notSupported(child(path, 'type'), type, openapiV3Types));
  if (has(s, 'default') && !w.allowDefaults) {
    const detail = w.disallowDefaultsReason
      ? `must not be set ${w.disallowDefaultsReason}`
      : 'must not be set';
    errs.push(fieldError.forbidden(child(path, 'default'), detail));
  }
  if (strOf(s.id)) errs.push(fieldError.forbidden(child(path, 'id'), 'id is not supported'));
  if (has(s, 'additionalItems'))
    errs.push(fieldError.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (nonEmptyMap(s.patternProperties))
    errs.push(fieldError.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (nonEmptyMap(s.definitions))
    errs.push(fieldError.forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (has(s, 'dependencies'))
    errs.push(fieldError.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (has(s, '$ref')) errs.push(fieldError.forbidden(child(path, '$ref'), '$ref is not supported'));
  if (type === 'null')
    errs.push(
      fieldError.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'),
    );
  if (nonEmptyList(s.items))
    errs.push(fieldError.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (w.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true)
    errs.push(
      fieldError.forbidden(
        child(path, 'x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta',
      ),
    );
  return errs;
}

export function validateOpenAPISchema(
  s: Raw,
  path: string,
  w: WalkState,
  isRoot: boolean,
  rules: SchemaRules,
): FieldError[] {
  const errs = validateNode(s, path, w, rules);
  if (s.uniqueItems === true)
    errs.push(
      fieldError.forbidden(
        child(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  const props = schemaMap(s, 'properties');
  if (has(s, 'additionalProperties')) {
    if (props.length > 0 && (s.additionalProperties === false || isRaw(s.additionalProperties)))
      errs.push(
        fieldError.forbidden(
          child(path, 'additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    const ap = subSchema(s, 'additionalProperties');
    // pruning cannot place a default in a map that applies to object metadata (labels, annotations)
    const sub = w.insideResourceMeta
      ? forbidDefaults(w, 'inside additionalProperties applying to object metadata')
      : w;
    if (ap) errs.push(...validateOpenAPISchema(ap, child(path, 'additionalProperties'), sub, false, rules));
  }
  for (const [name, p] of props) {
    let sub = w;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    errs.push(...validateOpenAPISchema(p, key(child(path, 'properties'), name), sub, false, rules));
  }
  const not = subSchema(s, 'not');
  if (not) errs.push(...validateOpenAPISchema(not, child(path, 'not'), w, false, rules));
  for (const combinator of ['allOf', 'oneOf', 'anyOf'])
    schemaList(s, combinator).forEach((x, i) =>
      errs.push(...validateOpenAPISchema(x, index(child(path, combinator), i), w, false, rules)),
    );
  for (const [name, d] of schemaMap(s, 'definitions'))
    errs.push(...validateOpenAPISchema(d, key(child(path, 'definitions'), name), w, false, rules));
  const items = subSchema(s, 'items');
  if (items) errs.push(...validateOpenAPISchema(items, child(path, 'items'), w, false, rules));
  if (Array.isArray(s.items))
    s.items.forEach((x, i) => {
      if (isRaw(x)) errs.push(...validateOpenAPISchema(x, index(child(path, 'items'), i), w, false, rules));
    });
  for (const [name, d] of schemaMap(s, 'dependencies'))
    errs.push(...validateOpenAPISchema(d, key(child(path, 'dependencies'), name), w, false, rules));

  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errs.push(
      fieldError.invalid(
        child(path, 'x-kubernetes-preserve-unknown-fields'),
        false,
        'must be true or undefined',
      ),
    );
  errs.push(...listAndMapMarkers(s, path, rules));
  if (rules.requireMapListKeysMapSetValidation) errs.push(...mapListKeysAndSets(s, path));
  errs.push(...validationRules(s, path));
  return errs;
}

function typeMustBe(s: Raw, path: string, type: string, msg: string): FieldError[] {
  const have = typeOf(s);
  if (have === type) return [];
  return [
    have ? fieldError.invalid(child(path, 'type'), have, msg) : fieldError.required(child(path, 'type'), msg),
  ];
}

function listAndMapMarkers(s: Raw, path: string, rules: SchemaRules): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = Array.isArray(s['x-kubernetes-list-map-keys'])
    ? (s['x-kubernetes-list-map-keys'] as string[])
    : [];
  if (typeof mapType === 'string') {
    errs.push(...typeMustBe(s, path, 'object', 'must be object if x-kubernetes-map-type is specified'));
    if (mapType !== 'atomic' && mapType !== 'granular')
      errs.push(
        fieldError.notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']),
      );
  }
  const items = subSchema(s, 'items');
  if (typeof listType === 'string' && typeOf(s) !== 'array') {
    errs.push(...typeMustBe(s, path, 'array', 'must be array if x-kubernetes-list-type is specified'));
  } else if (rules.requireAtomicSetType && listType === 'set' && items) {
    // a set compares whole items, so an item must merge as one value
    const itemListType = items['x-kubernetes-list-type'];
    const itemMapType = items['x-kubernetes-map-type'];
    const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    if (typeOf(items) === 'array' && typeof itemListType === 'string' && itemListType !== 'atomic')
      errs.push(fieldError.invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), itemListType, msg));
    if (typeOf(items) === 'object' && itemMapType !== 'atomic')
      // kube reports the item's list type here, unset: its value prints as "null"
      errs.push(
        fieldError.invalid(
          child(child(path, 'items'), 'x-kubernetes-map-type'),
          strOrNull(itemListType),
          msg,
        ),
      );
  }
  if (typeof listType === 'string' && !['atomic', 'set', 'map'].includes(listType))
    errs.push(
      fieldError.notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']),
    );
  if (mapKeys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (typeof listType !== 'string')
      errs.push(fieldError.required(child(path, 'x-kubernetes-list-type'), msg));
    else if (listType !== 'map')
      errs.push(fieldError.invalid(child(path, 'x-kubernetes-list-type'), listType, msg));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0)
      errs.push(
        fieldError.required(
          child(path, 'x-kubernetes-list-map-keys'),
          'must not be empty if x-kubernetes-list-type is map',
        ),
      );
    if (!has(s, 'items'))
      errs.push(
        fieldError.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'),
      );
    else if (!items)
      errs.push(
        fieldError.invalid(
          child(path, 'items'),
          s.items,
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      );
    if (items && typeOf(items) !== 'object')
      errs.push(
        fieldError.invalid(
          child(child(path, 'items'), 'type'),
          typeOf(items),
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    if (items && typeOf(items) === 'object') {
      const itemProps = isRaw(items.properties) ? items.properties : {};
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = itemProps[k];
        if (isRaw(p)) {
          if (typeOf(p) === 'array' || typeOf(p) === 'object')
            // kube shows the item's type as the value here
            errs.push(
              fieldError.invalid(
                child(key(child(child(path, 'items'), 'properties'), k), 'type'),
                typeOf(items),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
        } else {
          errs.push(
            fieldError.invalid(
              child(path, 'x-kubernetes-list-map-keys'),
              mapKeys,
              'entries must all be names of item properties',
            ),
          );
        }
        if (seen.has(k))
          errs.push(
            fieldError.invalid(
              child(path, 'x-kubernetes-list-map-keys'),
              mapKeys,
              'must not contain duplicate entries',
            ),
          );
        seen.add(k);
      }
    }
  }
  return errs;
}

const strOrNull = (v: unknown): string => (typeof v === 'string' ? v : 'null');

/** Items of a set or map list may not be null, and a map list's keys must always be there. */
export function mapListKeysAndSets(s: Raw, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = subSchema(s, 'items');
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return errs;
  if (items.nullable === true)
    errs.push(
      fieldError.forbidden(
        child(child(path, 'items'), 'nullable'),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  if (listType !== 'map') return errs;
  const required = new Set(Array.isArray(items.required) ? items.required : []);
  const itemProps = isRaw(items.properties) ? items.properties : {};
  const mapKeys = Array.isArray(s['x-kubernetes-list-map-keys'])
    ? (s['x-kubernetes-list-map-keys'] as string[])
    : [];
  for (const k of mapKeys) {
    const p = itemProps[k];
    if (!isRaw(p)) continue;
    const at = key(child(child(path, 'items'), 'properties'), k);
    if (!required.has(k) && !has(p, 'default'))
      errs.push(
        fieldError.required(
          child(at, 'default'),
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    if (p.nullable === true)
      errs.push(
        fieldError.forbidden(
          child(at, 'nullable'),
          'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
        ),
      );
  }
  return errs;
}

const newlines = /[\n\r]+/;

/** The parts of x-kubernetes-validations that need no CEL: presence, messages, reason, fieldPath. */
function validationRules(s: Raw, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [];
  rules.forEach((r: unknown, i: number) => {
    if (!isRaw(r)) return;
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const rule = strOf(r.rule).trim();
    const rawMessage = strOf(r.message);
    const message = rawMessage.trim();
    if (!rule) errs.push(fieldError.required(child(at, 'rule'), 'rule is not specified'));
    else if (rawMessage && !message)
      errs.push(
        fieldError.invalid(child(at, 'message'), rawMessage, 'message must be non-empty if specified'),
      );
    else if (newlines.test(message))
      errs.push(fieldError.invalid(child(at, 'message'), rawMessage, 'message must not contain line breaks'));
    else if (newlines.test(rule) && !message)
      errs.push(
        fieldError.required(child(at, 'message'), 'message must be specified if rule contains line breaks'),
      );
    const messageExpression = strOf(r.messageExpression);
    if (messageExpression && !messageExpression.trim())
      errs.push(
        fieldError.required(
          child(at, 'messageExpression'),
          'messageExpression must be non-empty if specified',
        ),
      );
    if (typeof r.reason === 'string' && !supportedRuleReasons.includes(r.reason))
      errs.push(fieldError.notSupported(child(at, 'reason'), r.reason, supportedRuleReasons));
    const fieldPath = strOf(r.fieldPath);
    if (fieldPath && !fieldPath.trim())
      errs.push(
        fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'),
      );
    if (newlines.test(fieldPath))
      errs.push(
        fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'),
      );
    if (fieldPath && !validFieldPath(fieldPath, s, true).ok)
      errs.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  });
  return errs;
}
