/**
 * The table of a custom resource, as kube's CRD table convertor makes it: Name, then the version's
 * additionalPrinterColumns (Age alone when it has none), each cell the first value its JSONPath finds.
 */
import type { KubeObject } from '../../api/index.js';
import { findResults, parseJSONPath, printResults, type ListNode } from '../../api/index.js';
import { humanDuration, nameColumn } from '../../kinds/index.js';
import type { PrinterColumn } from '../../registry/index.js';
import type { PrinterColumnDefinition } from './types.js';

type CellType = PrinterColumn['type'];

// kube's descriptions here are ObjectMeta's API documentation; ours are the project's own wording
const creationTimestampDescription = 'When the object was created, in UTC.';

/** kube serves an Age column for a version that declares none. */
export const defaultColumns: PrinterColumnDefinition[] = [
  {
    name: 'Age',
    type: 'date',
    description: creationTimestampDescription,
    jsonPath: '.metadata.creationTimestamp',
  },
];

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A cell as kube's cellForJSONValue makes it from the first value found. */
export function cellValue(type: string, value: unknown, nowMs: number): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = rfc3339.test(value) ? Date.parse(value) : NaN;
      if (Number.isNaN(at)) return '<invalid>';
      if (at <= Date.parse('0001-01-01T00:00:00Z')) return '<unknown>';
      return humanDuration(nowMs - at);
    }
  }
  return null;
}

/** The cell of one column for one object; `template` is the column's path parsed inside `{}`. */
export function columnCell(
  template: ListNode,
  type: string,
  obj: unknown,
  nowMs: number,
): string | number | boolean | null {
  let results: unknown[][];
  try {
    results = findResults(template, obj, { allowMissingKeys: true });
  } catch {
    return null;
  }
  if (results.length === 0 || results[0].length === 0) return null;
  const value = results[0][0];
  // a string column prints whatever it finds (a number, an object as JSON); kube prints nil as <no value>
  if (type === 'string') return value === null ? '<no value>' : printResults([value]);
  return cellValue(type, value, nowMs);
}

/**
 * The printer columns of a custom resource version with their cells. A column whose path does not parse
 * is left out (kube refuses to build such a table; `columnPathError` in validation-columns says which).
 */
export function customResourceColumns(columns: PrinterColumnDefinition[] | undefined): PrinterColumn[] {
  const out: PrinterColumn[] = [nameColumn];
  for (const col of columns?.length ? columns : defaultColumns) {
    const jsonPath = col.jsonPath ?? '';
    let template: ListNode;
    try {
      template = parseJSONPath(`{${jsonPath}}`);
    } catch {
      continue;
    }
    const type = (col.type ?? 'string') as CellType;
    out.push({
      name: col.name ?? '',
      type,
      format: col.format || undefined,
      description: col.description || `Custom resource definition column (in JSONPath format): ${jsonPath}`,
      priority: col.priority ?? 0,
      jsonPath,
      cell: (obj: KubeObject, nowMs: number) => columnCell(template, type, obj, nowMs),
    });
  }
  return out;
}
