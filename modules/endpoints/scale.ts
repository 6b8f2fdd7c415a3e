/**
 * The `scale` subresource: an autoscaling/v1 Scale made from the object at the kind's ScalePaths, and written
 * back into the object's desired replicas (through the kind's own rules, as kube's ScaleREST updates the
 * object). `kubectl scale` PATCHes it; a Scale carrying a resourceVersion is a precondition.
 */
import {
  ApiError,
  field,
  fieldError,
  int32,
  isPlainObject,
  kindSchema,
  str,
  type KubeObject,
  type Schema,
} from '../api/index.js';
import { applyJsonPatch, applyMergePatch, patchTypeOf } from '../apply/index.js';
import { decodeBody } from '../codec/index.js';
import type { GenericStore, ResourceDefinition, ScalePaths } from '../registry/index.js';
import { logRequestObject } from './audit-hooks.js';
import { decodeRequestObject, parseFieldValidation, type BodyKind } from './decode.js';
import { bodyOf, writeOptions, type ResourceRequest } from './request.js';
import { addWarnings, send } from './respond.js';

const scaleSchema: Schema = kindSchema({
  description: 'The scale subresource of a scalable resource.',
  properties: {
    spec: field(2, {
      type: 'object',
      properties: { replicas: int32(1, 'Desired number of instances.') },
    }),
    status: field(3, {
      type: 'object',
      properties: {
        replicas: int32(1, 'Observed number of instances.'),
        selector: str(2, 'Label selector of the instances, in string form.'),
      },
    }),
  },
});

const scaleKind: BodyKind = { group: 'autoscaling', kind: 'Scale', schema: scaleSchema };

const segments = (path: string) => path.split('.').filter(Boolean);

function valueAt(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const s of segments(path)) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function setAt(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let cur = obj;
  for (const s of parts.slice(0, -1)) {
    if (!isPlainObject(cur[s])) cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

const replicasAt = (obj: unknown, path: string): number => {
  const v = valueAt(obj, path);
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
};

function pathsOf(def: ResourceDefinition): ScalePaths {
  if (!def.scale) throw ApiError.pathNotFound();
  return def.scale;
}

export function toScale(paths: ScalePaths, obj: KubeObject): KubeObject {
  const meta = obj.metadata;
  const spec: Record<string, unknown> = {};
  const replicas = replicasAt(obj, paths.specReplicasPath);
  if (replicas !== 0) spec.replicas = replicas;
  const status: Record<string, unknown> = { replicas: replicasAt(obj, paths.statusReplicasPath) };
  const selector = paths.labelSelectorPath ? valueAt(obj, paths.labelSelectorPath) : undefined;
  if (typeof selector === 'string' && selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec,
    status,
  };
}

/** The object with the Scale's desired replicas written in, after kube's checks of the Scale. */
function scaled(r: ResourceRequest, paths: ScalePaths, current: KubeObject, scale: KubeObject): KubeObject {
  const { info } = r;
  if (scale.metadata.name !== undefined && scale.metadata.name !== info.name) {
    throw ApiError.badRequest(
      `the name of the object (${String(scale.metadata.name)}) does not match the name on the URL (${info.name})`,
    );
  }
  const spec = isPlainObject(scale.spec) ? scale.spec : {};
  const replicas = spec.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw ApiError.invalid('Scale', 'autoscaling', info.name, [
      fieldError.invalid('spec.replicas', replicas, 'must be an integer'),
    ]);
  }
  if (replicas < 0) {
    throw ApiError.invalid('Scale', 'autoscaling', info.name, [
      fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'),
    ]);
  }
  const next = structuredClone(current);
  setAt(next, paths.specReplicasPath, replicas);
  // a Scale's resourceVersion is the object's: the store refuses a stale one
  if (scale.metadata.resourceVersion) next.metadata.resourceVersion = scale.metadata.resourceVersion;
  return next;
}

export async function getScale(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const paths = pathsOf(r.def);
  const obj = await generic.get(r.def, r.info.namespace, r.info.name);
  return send(r.reply, 200, toScale(paths, obj), r.out);
}

export async function updateScale(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const paths = pathsOf(r.def);
  const options = writeOptions(r);
  const { object: scale, warnings } = decodeRequestObject(
    scaleKind,
    'v1',
    r.req.headers['content-type'],
    bodyOf(r),
    parseFieldValidation(r.query.fieldValidation),
    r.cbor,
  );
  logRequestObject(r, scale);
  return write(generic, r, options, warnings, (current) => scaled(r, paths, current, scale));
}

export async function patchScale(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const paths = pathsOf(r.def);
  const type = patchTypeOf(r.req.headers['content-type'] ?? '');
  // a Scale has no lists: a strategic merge patch of it is a merge patch
  if (type !== 'json' && type !== 'merge' && type !== 'strategic') {
    throw ApiError.unsupportedMediaType([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
  }
  const options = writeOptions(r);
  const body = bodyOf(r);
  if (!body || body.length === 0) throw ApiError.badRequest('the request body must not be empty for a patch');
  const patch = decodeBody(body, 'json');
  return write(generic, r, options, [], (current) => {
    const scale = toScale(paths, current);
    const result = type === 'json' ? applyJsonPatch(scale, patch) : applyMergePatch(scale, patch);
    if (!isPlainObject(result) || !isPlainObject(result.metadata)) {
      throw ApiError.badRequest('the patched object must be a Scale object');
    }
    return scaled(r, paths, current, result as KubeObject);
  });
}

async function write(
  generic: GenericStore,
  r: ResourceRequest,
  options: ReturnType<typeof writeOptions>,
  warnings: string[],
  change: (current: KubeObject) => KubeObject,
): Promise<unknown> {
  const { def, info } = r;
  const paths = pathsOf(def);
  const result = await generic.update(
    r.ctx,
    def,
    info.namespace,
    info.name,
    (current) => {
      if (!current) throw ApiError.notFound({ group: def.group, resource: def.resource }, info.name);
      return change(current);
    },
    options,
  );
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return send(r.reply, 200, toScale(paths, result.object), r.out);
}
