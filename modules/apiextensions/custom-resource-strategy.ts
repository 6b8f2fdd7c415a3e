/**
 * The rules of a custom resource at one version of its CRD, as kube's customResourceStrategy and its status
 * strategy apply them: the schema's defaults, its validation and CEL rules (ratcheted on update), status
 * written only through `status` when that subresource is on, `metadata.generation` bumped by changes that are
 * not metadata (nor status, when status is a subresource), and the version's selectable fields.
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiError, type KubeObject } from '../api/index.js';
import type { Strategy } from '../registry/index.js';
import { findResults, parseJSONPath } from '../api/index.js';
import { isConditionTrue, type CRDVersion, type CustomResourceDefinition } from './crd/index.js';
import { keepAllButStatus } from './status-only.js';
import { versionChecks } from './version-checks.js';

const withoutMetadata = ({ metadata: _m, ...rest }: KubeObject) => rest;

/**
 * kube's selectable field values: the text of a string, integer or boolean; empty for a missing value (every
 * field is always there, so the registry learns their names from an empty object).
 */
function selectableFieldsOf(version: CRDVersion): Strategy['selectableFields'] {
  const fields = (version.selectableFields ?? []).map((f) => {
    const template = parseJSONPath(`{${f.jsonPath ?? ''}}`);
    const find = (obj: KubeObject) => findResults(template, obj, { allowMissingKeys: true })[0]?.[0];
    return { name: (f.jsonPath ?? '').replace(/^\./, ''), find };
  });
  if (fields.length === 0) return undefined;
  return (obj) => {
    const values: Record<string, string> = {};
    for (const f of fields) {
      const v = f.find(obj);
      values[f.name] =
        typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
    }
    return values;
  };
}

export function customResourceStrategies(
  crd: CustomResourceDefinition,
  version: CRDVersion,
): { strategy: Strategy; subresourceStrategies: Record<string, Strategy> } {
  const checks = versionChecks(version);
  const statusIsSubresource = version.subresources?.status !== undefined;
  const terminating = isConditionTrue(crd, 'Terminating');

  const strategy: Strategy = {
    defaults: (obj) => checks.defaults(obj),
    prepareForCreate(obj) {
      if (terminating) {
        throw ApiError.methodNotAllowed('create not allowed while custom resource definition is terminating');
      }
      if (statusIsSubresource) delete obj.status;
    },
    prepareForUpdate(obj, old) {
      if (statusIsSubresource) {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      } else if (!isDeepStrictEqual(obj.status, old.status)) {
        // the generic rule leaves status out; without a status subresource kube counts it as the spec
        const { status: _n, ...next } = withoutMetadata(obj);
        const { status: _o, ...prev } = withoutMetadata(old);
        if (isDeepStrictEqual(next, prev)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      }
    },
    validate: (obj, ctx) => checks.validate(obj, undefined, ctx.warnings),
    validateUpdate: (obj, old, ctx) => checks.validate(obj, old, ctx.warnings),
    updateReplacesValidate: true,
    selectableFields: selectableFieldsOf(version),
  };

  // status writes change status only: everything else stays as stored (managedFields as just recorded)
  const status: Strategy = {
    defaults: (obj) => checks.defaults(obj),
    prepareForUpdate: keepAllButStatus,
    validateUpdate: (obj, old, ctx) => checks.validateStatus(obj, old, ctx.warnings),
    updateReplacesValidate: true,
  };

  // scale writes the desired replicas into the object, which then follows the object's own rules
  const subresourceStrategies: Record<string, Strategy> = {};
  if (statusIsSubresource) subresourceStrategies.status = status;
  if (version.subresources?.scale) subresourceStrategies.scale = strategy;
  return { strategy, subresourceStrategies };
}
