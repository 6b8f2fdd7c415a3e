/**
 * A CRD version's additionalPrinterColumns as Table columns, cells as kube's CRD table convertor makes them:
 * the first JSONPath match; `string` columns print the value, the others keep their JSON type, `date` is an
 * age; no match is a null cell. A version without columns gets kube's default, Age.
 */
import type { KubeObject } from '../api/index.js';
import { nameColumn, timestampSince } from '../kinds/index.js';
import type { PrinterColumn } from '../registry/index.js';
import type { CrdColumn } from './crd-shape.js';
import { firstMatch } from './column-path.js';

const columnTypes = new Set(['string', 'integer', 'number', 'boolean', 'date']);

const defaultColumns: CrdColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

function cellOf(type: string, value: unknown, nowMs: number): string | number | boolean | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? timestampSince(value, nowMs) : null;
  }
  return null;
}

export function crdColumns(columns: CrdColumn[] | undefined): PrinterColumn[] {
  const own = columns?.length ? columns : defaultColumns;
  return [
    nameColumn,
    ...own.map((c): PrinterColumn => {
      const match = firstMatch(c.jsonPath);
      const type = columnTypes.has(c.type) ? (c.type as PrinterColumn['type']) : 'string';
      return {
        name: c.name,
        type,
        format: c.format,
        description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        priority: c.priority ?? 0,
        jsonPath: c.jsonPath,
        cell: (obj: KubeObject, nowMs: number) => {
          const found = match(obj);
          return found === undefined ? null : cellOf(type, found, nowMs);
        },
      };
    }),
  ];
}
