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
  ServiceReference,
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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const optionalText = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const texts = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
const objects = <T>(v: unknown): T[] | undefined =>
  Array.isArray(v) ? (v.filter(isObject) as T[]) : undefined;
const object = <T>(v: unknown): T | undefined => (isObject(v) ? (v as T) : undefined);

/**
 * Names as strings and string lists. Decoding against the kind's schema already makes them so; values that
 * reach validation some other way (a controller, a test) are read the same way rather than crash it.
 */
export function namesOf(v: unknown): CRDNames {
  if (!isObject(v)) return {};
  const out: CRDNames = {};
  for (const k of ['plural', 'singular', 'kind', 'listKind'] as const) {
    const value = optionalText(v[k]);
    if (value !== undefined) out[k] = value;
  }
  const shortNames = texts(v.shortNames);
  if (shortNames) out.shortNames = shortNames;
  const categories = texts(v.categories);
  if (categories) out.categories = categories;
  return out;
}

function serviceOf(v: unknown): ServiceReference | undefined {
  if (!isObject(v)) return undefined;
  return {
    name: text(v.name),
    namespace: text(v.namespace),
    path: optionalText(v.path),
    port: typeof v.port === 'number' ? v.port : undefined,
  };
}

/** The stored versions that are strings. */
export const storedVersionsOf = (crd: CustomResourceDefinition): string[] | undefined =>
  isObject(crd.status) ? texts(crd.status.storedVersions) : undefined;

function versionOf(v: CRDVersion): InternalVersion {
  return {
    name: text(v.name),
    served: v.served === true,
    storage: v.storage === true,
    deprecated: v.deprecated === true,
    deprecationWarning: optionalText(v.deprecationWarning),
    validation: object(v.schema),
    subresources: object(v.subresources),
    additionalPrinterColumns: objects(v.additionalPrinterColumns),
    selectableFields: objects(v.selectableFields),
  };
}

export function internalSpec(crd: CustomResourceDefinition): InternalSpec {
  const spec: Record<string, unknown> = isObject(crd.spec) ? crd.spec : {};
  const versions = objects<CRDVersion>(spec.versions) ?? [];
  const out: InternalSpec = {
    group: text(spec.group),
    names: namesOf(spec.names),
    scope: text(spec.scope),
    version: text(versions[0]?.name),
    versions: versions.map(versionOf),
    preserveUnknownFields: spec.preserveUnknownFields === true ? true : undefined,
  };
  if (versions.length > 0) {
    if (identical(versions, 'schema')) {
      out.validation = out.versions[0].validation;
      for (const v of out.versions) delete v.validation;
    }
    if (identical(versions, 'subresources')) {
      out.subresources = out.versions[0].subresources;
      for (const v of out.versions) delete v.subresources;
    }
    if (identical(versions, 'additionalPrinterColumns')) {
      out.additionalPrinterColumns = out.versions[0].additionalPrinterColumns;
      for (const v of out.versions) delete v.additionalPrinterColumns;
    }
    if (identical(versions, 'selectableFields')) {
      out.selectableFields = out.versions[0].selectableFields;
      for (const v of out.versions) delete v.selectableFields;
    }
  }
  const conversion = object<Record<string, unknown>>(spec.conversion);
  if (conversion) {
    out.conversion = { strategy: text(conversion.strategy) };
    const webhook = object<Record<string, unknown>>(conversion.webhook);
    if (webhook) {
      out.conversion.conversionReviewVersions = texts(webhook.conversionReviewVersions);
      const cc = object<Record<string, unknown>>(webhook.clientConfig);
      if (cc)
        out.conversion.webhookClientConfig = {
          url: optionalText(cc.url),
          service: serviceOf(cc.service),
          caBundle: optionalText(cc.caBundle),
        };
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
