/**
 * Printer columns, selectable fields and the scale subresource's paths, with kube's rules and messages.
 * kube only checks that these JSONPaths look like `.a.b`; a column whose path does not parse as JSONPath
 * fails later, when a table is made (see `columnPathError` for the integrator to check that at once).
 */
import { fieldError, type FieldError, type Schema } from '../../api/index.js';
import { parseJSONPath } from '../../api/index.js';
import { validFieldPath } from './field-path.js';
import { raw, typeOf } from './schema-walk.js';
import { structuralBuildError } from './structural.js';
import type { CRDSubresources, PrinterColumnDefinition, SelectableField } from './types.js';

export const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
export const printerColumnFormats = [
  'byte',
  'date',
  'date-time',
  'double',
  'float',
  'int32',
  'int64',
  'password',
];
export const maxSelectableFields = 8;

/** kube's validateSimpleJSONPath: starts with a dot. */
function simpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldError.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldError.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

export function validateColumn(col: PrinterColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(fieldError.required(`${path}.name`, ''));
  const types = `must be one of ${printerColumnTypes.join(',')}`;
  if (!col.type) errs.push(fieldError.required(`${path}.type`, types));
  else if (!printerColumnTypes.includes(col.type))
    errs.push(fieldError.invalid(`${path}.type`, col.type, types));
  if (col.format && !printerColumnFormats.includes(col.format))
    errs.push(
      fieldError.invalid(`${path}.format`, col.format, `must be one of ${printerColumnFormats.join(',')}`),
    );
  // the internal type's Go field is JSONPath, and kube names the path after it
  if (!col.jsonPath) errs.push(fieldError.required(`${path}.JSONPath`, ''));
  else errs.push(...simpleJSONPath(col.jsonPath, `${path}.JSONPath`));
  return errs;
}

/** Why kube's table convertor would refuse the column's path (`{<path>}` must parse), or undefined. */
export function columnPathError(jsonPath: string): string | undefined {
  try {
    parseJSONPath(`{${jsonPath}}`);
    return undefined;
  } catch {
    return `unrecognized column definition ${JSON.stringify(jsonPath)}`;
  }
}

export function validateSelectableFields(
  fields: SelectableField[],
  schema: Schema | undefined,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    if (!f.jsonPath) {
      errs.push(fieldError.required(at, ''));
      return;
    }
    const found = schema
      ? validFieldPath(f.jsonPath, raw(schema), false)
      : { ok: false as const, error: 'does not refer to a valid field' };
    if (!found.ok) {
      errs.push(fieldError.invalid(at, f.jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.segments[0] === 'metadata')
      errs.push(fieldError.invalid(at, f.jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(typeOf(found.schema)))
      errs.push(
        fieldError.invalid(
          at,
          f.jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    if (unique.has(found.path)) errs.push(fieldError.duplicate(at, f.jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > maxSelectableFields)
    errs.push(fieldError.tooMany(path, unique.size, maxSelectableFields));
  return errs;
}

/** Selectable fields need a schema to point into; `schemaPath` is where kube reports one it cannot read. */
export function selectableFieldsErrors(
  fields: SelectableField[] | undefined,
  schema: Schema | undefined,
  path: string,
  schemaPath: string,
  missingMessage: string,
): FieldError[] {
  if (!fields?.length) return [];
  if (!schema) return [fieldError.invalid(path, '', missingMessage)];
  const errs: FieldError[] = [];
  const buildError = structuralBuildError(raw(schema));
  if (buildError) errs.push(fieldError.invalid(schemaPath, '', buildError));
  return [...errs, ...validateSelectableFields(fields, schema, path)];
}

export function validateSubresources(sub: CRDSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const specPath = `${path}.scale.specReplicasPath`;
  if (!scale.specReplicasPath) errs.push(fieldError.required(specPath, ''));
  else {
    const bad = simpleJSONPath(scale.specReplicasPath, specPath);
    if (bad.length > 0) errs.push(...bad);
    else if (!scale.specReplicasPath.startsWith('.spec.'))
      errs.push(fieldError.invalid(specPath, scale.specReplicasPath, 'should be a json path under .spec'));
  }
  const statusPath = `${path}.scale.statusReplicasPath`;
  if (!scale.statusReplicasPath) errs.push(fieldError.required(statusPath, ''));
  else {
    const bad = simpleJSONPath(scale.statusReplicasPath, statusPath);
    if (bad.length > 0) errs.push(...bad);
    else if (!scale.statusReplicasPath.startsWith('.status.'))
      errs.push(
        fieldError.invalid(statusPath, scale.statusReplicasPath, 'should be a json path under .status'),
      );
  }
  const selector = scale.labelSelectorPath;
  if (selector) {
    const selectorPath = `${path}.scale.labelSelectorPath`;
    const bad = simpleJSONPath(selector, selectorPath);
    if (bad.length > 0) errs.push(...bad);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.'))
      errs.push(
        fieldError.invalid(selectorPath, selector, 'should be a json path under either .spec or .status'),
      );
  }
  return errs;
}
