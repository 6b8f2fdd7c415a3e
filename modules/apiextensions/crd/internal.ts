/**
 * kube validates a CRD in its internal form, not as v1: the conversion from v1 moves a per-version field
 * that is identical in every version (schema, subresources, printer columns, selectable fields) to the
 * top level and names `spec.version` after the first version. Error paths follow that form
 * (`spec.validation.openAPIV3Schema...` for a one-version CRD, `spec.conversion.webhookClientConfig`), so
 * validation works on this view to report them as kube does.
 */
import type { Schema } from '../../api/index.js';
import { semanticEqual } from './defaults.js';
import type {
  CRDNames,
  CRDSubresources,
  CRDVersion,
  CustomResourceDefinition,
  PrinterColumnDefinition,
  SelectableField,
  WebhookClientConfig,
} from './types.js';

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  /** absent when hoisted to the top level (or never set) */
  validation?: { openAPIV3Schema?: Schema };
  subresources?: CRDSubresources;
  additionalPrinterColumns?: PrinterColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface InternalSpec {
  group: string;
  names: CRDNames;
  scope: string;
  /** versions[0].name, as the conversion sets it */
  version: string;
  versions: InternalVersion[];
  validation?: { openAPIV3Schema?: Schema };
  subresources?: CRDSubresources;
  additionalPrinterColumns?: PrinterColumnDefinition[];
  selectableFields?: SelectableField[];
  conversion?: {
    strategy: string;
    webhookClientConfig?: WebhookClientConfig;
    conversionReviewVersions?: string[];
  };
  preserveUnknownFields?: boolean;
}

type Hoistable = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

function identical(versions: CRDVersion[], key: Hoistable): boolean {
  return versions.every((v) => semanticEqual(v[key], versions[0][key]));
}

export function internalSpec(crd: CustomResourceDefinition): InternalSpec {
  const spec = crd.spec ?? {};
  const versions = spec.versions ?? [];
  const out: InternalSpec = {
    group: spec.group ?? '',
    names: spec.names ?? {},
    scope: spec.scope ?? '',
    version: versions[0]?.name ?? '',
    versions: versions.map((v) => ({
      name: v.name ?? '',
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning,
      validation: v.schema,
      subresources: v.subresources,
      additionalPrinterColumns: v.additionalPrinterColumns,
      selectableFields: v.selectableFields,
    })),
    preserveUnknownFields: spec.preserveUnknownFields,
  };
  if (versions.length > 0) {
    if (identical(versions, 'schema')) {
      out.validation = versions[0].schema;
      for (const v of out.versions) delete v.validation;
    }
    if (identical(versions, 'subresources')) {
      out.subresources = versions[0].subresources;
      for (const v of out.versions) delete v.subresources;
    }
    if (identical(versions, 'additionalPrinterColumns')) {
      out.additionalPrinterColumns = versions[0].additionalPrinterColumns;
      for (const v of out.versions) delete v.additionalPrinterColumns;
    }
    if (identical(versions, 'selectableFields')) {
      out.selectableFields = versions[0].selectableFields;
      for (const v of out.versions) delete v.selectableFields;
    }
  }
  const conversion = spec.conversion;
  if (conversion) {
    out.conversion = { strategy: conversion.strategy ?? '' };
    if (conversion.webhook) {
      out.conversion.conversionReviewVersions = conversion.webhook.conversionReviewVersions;
      if (conversion.webhook.clientConfig)
        out.conversion.webhookClientConfig = conversion.webhook.clientConfig;
    }
  }
  return out;
}

/** The subresources that apply to a version: its own, or the top-level ones when no version has any. */
export function subresourcesFor(spec: InternalSpec, version: InternalVersion): CRDSubresources | undefined {
  const perVersion = spec.versions.some((v) => v.subresources !== undefined);
  return perVersion ? version.subresources : spec.subresources;
}

/** Every schema of the CRD: the top-level one and each version's own. */
export function allSchemas(spec: InternalSpec): Schema[] {
  const out: Schema[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.validation?.openAPIV3Schema) out.push(v.validation.openAPIV3Schema);
  return out;
}
