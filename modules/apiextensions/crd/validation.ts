/**
 * Validation of a CustomResourceDefinition with kube v1.32's field paths and messages
 * (apiextensions-apiserver's ValidateCustomResourceDefinition and ...Update). Object metadata in general
 * is the generic store's; this adds what is particular to the kind. The CRD is judged in kube's internal
 * form (`internal.ts`), which is why a one-version CRD's schema errors say `spec.validation.openAPIV3Schema`.
 */
import { fieldError, type FieldError } from '../../api/index.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/index.js';
import {
  allSchemas,
  internalSpec,
  namesOf,
  storedVersionsOf,
  subresourcesFor,
  type InternalSpec,
} from './internal.js';
import { ratchetFrom, strictest, type Ratchet } from './ratcheting.js';
import { raw, schemaHas } from './schema-walk.js';
import { validateCRDSchema, type PluggedChecks, type SchemaOptions } from './validation-schema.js';
import { selectableFieldsErrors, validateColumn, validateSubresources } from './validation-columns.js';
import { validateConversion } from './validation-conversion.js';
import { requiredNames, validateNames } from './validation-names.js';
import {
  deprecationWarningErrors,
  validateStoredVersions,
  versionListErrors,
} from './validation-versions.js';
import type { CustomResourceDefinition } from './types.js';

/** The checks the caller plugs in (the values module's default check, CEL's rule compiler). */
export type CRDValidationOptions = PluggedChecks;

const immutable = 'field is immutable';
const approvalAnnotation = 'api-approved.kubernetes.io';

export function validateCRD(crd: CustomResourceDefinition, opts: CRDValidationOptions = {}): FieldError[] {
  return validateAll(crd, undefined, strictest, opts);
}

export function validateCRDUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
  opts: CRDValidationOptions = {},
): FieldError[] {
  return validateAll(crd, old, ratchetFrom(old), opts);
}

/** What an update may not change; kube reports these right after the spec's own errors. */
function immutableFields(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
  ratchet: Ratchet,
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? {};
  const oldSpec = old.spec ?? {};
  if (ratchet.requireImmutableNames) {
    // served objects are stored under these
    if (spec.scope !== oldSpec.scope)
      errs.push(fieldError.invalid('spec.scope', spec.scope ?? '', immutable));
    if (spec.names?.kind !== oldSpec.names?.kind)
      errs.push(fieldError.invalid('spec.names.kind', spec.names?.kind ?? '', immutable));
  }
  // the CRD's own name is made of these, and names never change
  if (spec.group !== oldSpec.group) errs.push(fieldError.invalid('spec.group', spec.group ?? '', immutable));
  if (spec.names?.plural !== oldSpec.names?.plural)
    errs.push(fieldError.invalid('spec.names.plural', spec.names?.plural ?? '', immutable));
  return errs;
}

/** An update of /status: only the accepted names are judged. */
export function validateCRDStatusUpdate(crd: CustomResourceDefinition): FieldError[] {
  return validateNames(namesOf(crd.status?.acceptedNames), 'status.acceptedNames');
}

function validateAll(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
  ratchet: Ratchet,
  opts: CRDValidationOptions,
): FieldError[] {
  const spec = internalSpec(crd);
  const errs: FieldError[] = [];
  const name = crd.metadata?.name;
  if (name && name !== `${spec.names.plural ?? ''}.${spec.group}`)
    errs.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...validateSpec(spec, crd.spec?.versions, ratchet, opts));
  if (old) errs.push(...immutableFields(crd, old, ratchet));
  errs.push(...validateNames(namesOf(crd.status?.acceptedNames), 'status.acceptedNames'));
  errs.push(...validateStoredVersions(storedVersionsOf(crd), spec.versions, 'status.storedVersions'));
  errs.push(...validateApproval(crd, old));
  if (old?.spec?.preserveUnknownFields !== true && spec.preserveUnknownFields === true)
    errs.push(
      fieldError.invalid(
        'spec.preserveUnknownFields',
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    );
  return errs;
}

const hasKubernetesExtensions = (s: Record<string, unknown>): boolean =>
  s['x-kubernetes-embedded-resource'] === true ||
  s['x-kubernetes-preserve-unknown-fields'] !== undefined ||
  s['x-kubernetes-int-or-string'] === true ||
  (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) ||
  s['x-kubernetes-list-type'] !== undefined ||
  (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0);

function validateSpec(
  spec: InternalSpec,
  versionsAsSent: unknown,
  ratchet: Ratchet,
  plugged: PluggedChecks,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.group) errs.push(fieldError.required('spec.group', ''));
  else {
    const bad = isDNS1123Subdomain(spec.group);
    if (bad.length > 0) errs.push(fieldError.invalid('spec.group', spec.group, bad.join(',')));
    else if (spec.group.split('.').length < 2)
      errs.push(fieldError.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) errs.push(fieldError.required('spec.scope', ''));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced')
    errs.push(fieldError.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  const preserve = spec.preserveUnknownFields === true;
  const opts: SchemaOptions = { ...ratchet, ...plugged, allowDefaults: true };
  // pruning needs a structural schema, and so do defaults and the x-kubernetes-* markers
  if (!preserve) opts.requireStructuralSchema = true;
  const schemas = allSchemas(spec).map(raw);
  if (!spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      const at = `spec.versions[${i}].schema.openAPIV3Schema`;
      if (v.validation?.openAPIV3Schema) return;
      if (ratchet.requireOpenAPISchema) errs.push(fieldError.required(at, 'schemas are required'));
      else if (!preserve && v.served)
        errs.push(fieldError.required(at, 'because otherwise all fields are pruned'));
    });
  }
  if (schemas.some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null))) {
    opts.requireStructuralSchema = true;
    if (preserve)
      errs.push(
        fieldError.invalid(
          'spec.preserveUnknownFields',
          true,
          'must be false in order to use defaults in the schema',
        ),
      );
  }
  if (schemas.some((s) => schemaHas(s, hasKubernetesExtensions))) opts.requireStructuralSchema = true;

  const anyStatus =
    spec.subresources?.status !== undefined ||
    spec.versions.some((v) => v.subresources?.status !== undefined);
  spec.versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    const bad = isDNS1035Label(v.name);
    if (bad.length > 0) errs.push(fieldError.invalid(`${at}.name`, v.name, bad.join(',')));
    for (const msg of deprecationWarningErrors(v.deprecated, v.deprecationWarning))
      errs.push(fieldError.invalid(`${at}.deprecationWarning`, v.deprecationWarning ?? null, msg));
    const statusEnabled = subresourcesFor(spec, v)?.status !== undefined;
    errs.push(...validateCRDSchema(v.validation, statusEnabled, opts, `${at}.schema`));
    errs.push(...validateSubresources(v.subresources, `${at}.subresources`));
    (v.additionalPrinterColumns ?? []).forEach((c, j) =>
      errs.push(...validateColumn(c, `${at}.additionalPrinterColumns[${j}]`)),
    );
    errs.push(
      ...selectableFieldsErrors(
        v.selectableFields,
        v.validation?.openAPIV3Schema,
        `${at}.selectableFields`,
        `${at}.schema.openAPIV3Schema`,
        'selectableFields may only be set when version.schema.openAPIV3Schema is not included',
      ),
    );
  });
  errs.push(...versionListErrors(spec.versions, versionsAsSent ?? [], 'spec.versions'));
  if (spec.version) {
    const bad = isDNS1035Label(spec.version);
    if (bad.length > 0) errs.push(fieldError.invalid('spec.version', spec.version, bad.join(',')));
  }
  errs.push(...requiredNames(spec.names, 'spec.names'));
  errs.push(...validateNames(spec.names, 'spec.names'));
  errs.push(...validateCRDSchema(spec.validation, anyStatus, opts, 'spec.validation'));
  errs.push(...validateSubresources(spec.subresources, 'spec.subresources'));
  (spec.additionalPrinterColumns ?? []).forEach((c, j) =>
    errs.push(...validateColumn(c, `spec.additionalPrinterColumns[${j}]`)),
  );
  errs.push(
    ...selectableFieldsErrors(
      spec.selectableFields,
      spec.validation?.openAPIV3Schema,
      'spec.selectableFields',
      'spec.schema.openAPIV3Schema',
      'selectableFields may only be set when validations.schema is included',
    ),
  );
  if (spec.conversion && spec.conversion.strategy !== 'None' && preserve)
    errs.push(
      fieldError.invalid(
        'spec.conversion.strategy',
        spec.conversion.strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  errs.push(...validateConversion(spec, ratchet, 'spec.conversion'));
  return errs;
}

/** Groups under k8s.io and kubernetes.io are the community's: a CRD there must say where it was approved. */
function validateApproval(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
): FieldError[] {
  const group = crd.spec?.group ?? '';
  const isProtected = [/^k8s\.io$/, /\.k8s\.io$/, /^kubernetes\.io$/, /\.kubernetes\.io$/].some((r) =>
    r.test(group),
  );
  if (!isProtected) return [];
  const state = approvalState(crd.metadata?.annotations?.[approvalAnnotation]);
  if (old && approvalState(old.metadata?.annotations?.[approvalAnnotation]).state === state.state) return [];
  const at = `metadata.annotations[${approvalAnnotation}]`;
  if (state.state === 'missing') return [fieldError.required(at, state.reason)];
  if (state.state === 'invalid')
    return [fieldError.invalid(at, crd.metadata?.annotations?.[approvalAnnotation] ?? '', state.reason)];
  return [];
}

function approvalState(value: string | undefined): { state: string; reason: string } {
  const see = 'see https://github.com/kubernetes/enhancements/pull/1111';
  if (!value)
    return {
      state: 'missing',
      reason: `protected groups must have approval annotation "${approvalAnnotation}", ${see}`,
    };
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: '' };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+/.test(value)) return { state: 'approved', reason: '' };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", ${see}`,
  };
}
