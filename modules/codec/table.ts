/**
 * The server-side printing forms kubectl and metadata informers ask for: Table (rows with the kind's printer
 * columns) and PartialObjectMetadata(List), both in meta.k8s.io.
 */
import type { KubeObject, ListMeta } from '../api/index.js';
import type { PrinterColumn, ResourceDefinition } from '../registry/index.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** Kinds without printer columns get kube's default: Name and Created At. */
const defaultColumns: PrinterColumn[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    priority: 0,
    jsonPath: '.metadata.name',
  },
  {
    name: 'Created At',
    type: 'date',
    description: 'The time the object was created.',
    priority: 0,
    jsonPath: '.metadata.creationTimestamp',
  },
];

function atPath(obj: unknown, jsonPath: string): unknown {
  let cur: unknown = obj;
  for (const part of jsonPath.split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function partialObjectMetadata(obj: KubeObject, version = 'v1'): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

export function partialObjectMetadataList(items: KubeObject[], metadata: ListMeta, version = 'v1') {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata,
    items: items.map((i) => partialObjectMetadata(i, version)),
  };
}

export interface TableOptions {
  includeObject: IncludeObject;
  /** `meta.k8s.io` version asked for (v1 or v1beta1) */
  version: string;
  nowMs: number;
}

export function toTable(
  def: ResourceDefinition,
  objects: KubeObject[],
  metadata: Partial<ListMeta>,
  o: TableOptions,
) {
  const columns = def.printerColumns?.length ? def.printerColumns : defaultColumns;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${o.version}`,
    metadata,
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description,
      priority: c.priority,
    })),
    rows: objects.map((obj) => {
      const row: Record<string, unknown> = {
        cells: columns.map((c) => (c.cell ? c.cell(obj, o.nowMs) : (atPath(obj, c.jsonPath) ?? null))),
      };
      if (o.includeObject === 'Object') row.object = obj;
      else if (o.includeObject === 'Metadata') row.object = partialObjectMetadata(obj, o.version);
      return row;
    }),
  };
}

export function parseIncludeObject(value: string | undefined): IncludeObject {
  if (value === undefined || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  return 'Metadata';
}
