/**
 * The operations kube's installer registers for a resource: collection, item, all-namespaces and watch paths,
 * and subresources. Only verbs and subresources a definition declares are listed.
 */
import { versionView, type ResourceDefinition } from '../registry/index.js';
import { subresourceInfo, subresourceKind, type GroupVersionKind } from '../discovery/index.js';
import { META } from './meta-schemas.js';
import {
  groupVersionPath,
  kindSchemaName,
  listSchemaName,
  operationGroupVersion,
  operationTag,
  schemaName,
} from './names.js';
import {
  component,
  mediaTypes,
  ok,
  patchContentTypes,
  title,
  type Method,
  type OperationSpec,
  type PathSpec,
  type Payload,
} from './operations.js';
import {
  connectParams,
  deleteCollectionParams,
  deleteParams,
  listParams,
  nameParam,
  namespaceParam,
  patchParams,
  pretty,
  sortParams,
  writeParams,
  type ParamSpec,
} from './params.js';

export function resourcePaths(served: ResourceDefinition, version: string): PathSpec[] {
  // the version's own schema (protobuf media types) and subresources
  const def = versionView(served, version);
  const has = (v: string): boolean => (def.verbs as string[]).includes(v);
  const K = def.kind;
  const gv = operationGroupVersion(def.group, version);
  const tag = operationTag(def.group, version);
  const namespaced = def.scope === 'Namespaced';
  const ns = namespaced ? 'Namespaced' : '';
  const prefix = groupVersionPath(def.group, version);
  const collection = namespaced
    ? `${prefix}/namespaces/{namespace}/${def.resource}`
    : `${prefix}/${def.resource}`;
  const item = `${collection}/{name}`;
  const gvk: GroupVersionKind = { group: def.group, version, kind: K };
  const kindRef = component(kindSchemaName(def, version));
  const listRef = component(listSchemaName(def, version));
  const statusRef = component(`${META}.Status`);
  const deleteBody = { payload: component(`${META}.DeleteOptions`), contentTypes: ['*/*'], required: false };
  const plain = mediaTypes(def, false);
  const streaming = mediaTypes(def, has('watch'));
  const scopeParams = namespaced ? [namespaceParam] : [];
  const op = (
    o: Omit<OperationSpec, 'tag' | 'gvk' | 'produces'> & Partial<OperationSpec>,
  ): OperationSpec => ({
    tag,
    gvk,
    produces: plain,
    ...o,
  });
  const paths: PathSpec[] = [];
  const add = (path: string, params: ParamSpec[], ops: OperationSpec[]): void => {
    if (ops.length) paths.push({ path, params: sortParams(params), ops });
  };

  const listOp = (operationId: string, params: ParamSpec[]): OperationSpec =>
    op({
      method: 'get',
      operationId,
      description: has('watch') ? `list or watch ${K} objects` : `list ${K} objects`,
      action: 'list',
      params,
      responses: ok(listRef),
      produces: streaming,
    });

  add(
    collection,
    [...scopeParams, pretty],
    [
      ...(has('deletecollection')
        ? [
            op({
              method: 'delete',
              operationId: `delete${gv}Collection${ns}${K}`,
              description: `delete a collection of ${K} objects`,
              action: 'deletecollection',
              params: deleteCollectionParams,
              body: deleteBody,
              responses: ok(statusRef),
            }),
          ]
        : []),
      ...(has('list') ? [listOp(`list${gv}${ns}${K}`, listParams)] : []),
      ...(has('create')
        ? [
            op({
              method: 'post',
              operationId: `create${gv}${ns}${K}`,
              description: `create a ${K}`,
              action: 'post',
              params: writeParams,
              body: { payload: kindRef, contentTypes: ['*/*'], required: true },
              responses: ok(kindRef, '201', '202'),
            }),
          ]
        : []),
    ],
  );

  add(
    item,
    [nameParam(K), ...scopeParams, pretty],
    [
      ...(has('delete')
        ? [
            op({
              method: 'delete',
              operationId: `delete${gv}${ns}${K}`,
              description: `delete a ${K}`,
              action: 'delete',
              params: deleteParams,
              body: deleteBody,
              responses: ok(statusRef, '202'),
            }),
          ]
        : []),
      ...(has('get')
        ? [
            op({
              method: 'get',
              operationId: `read${gv}${ns}${K}`,
              description: `read a ${K}`,
              action: 'get',
              params: [],
              responses: ok(kindRef),
            }),
          ]
        : []),
      ...(has('patch') ? [patchOp(`patch${gv}${ns}${K}`, `partially update a ${K}`, kindRef)] : []),
      ...(has('update') ? [replaceOp(`replace${gv}${ns}${K}`, `replace a ${K}`, kindRef)] : []),
    ],
  );

  if (namespaced && has('list'))
    add(`${prefix}/${def.resource}`, [...listParams, pretty], [listOp(`list${gv}${K}ForAllNamespaces`, [])]);

  if (has('watch')) {
    const watchRef = component(`${META}.WatchEvent`);
    const watchOp = (operationId: string, action: string, description: string): OperationSpec =>
      op({
        method: 'get',
        operationId,
        description,
        action,
        params: [],
        responses: ok(watchRef),
        produces: streaming,
      });
    const watchCollection = namespaced
      ? `${prefix}/watch/namespaces/{namespace}/${def.resource}`
      : `${prefix}/watch/${def.resource}`;
    const deprecated = "deprecated: use the 'watch' parameter with a list operation instead";
    add(
      watchCollection,
      [...listParams, ...scopeParams, pretty],
      [
        watchOp(
          `watch${gv}${ns}${K}List`,
          'watchlist',
          `watch changes to a list of ${K} objects; ${deprecated}`,
        ),
      ],
    );
    add(
      `${watchCollection}/{name}`,
      [...listParams, nameParam(K), ...scopeParams, pretty],
      [
        watchOp(
          `watch${gv}${ns}${K}`,
          'watch',
          `watch changes to one ${K}; ${deprecated} and a fieldSelector on its name`,
        ),
      ],
    );
    if (namespaced) {
      add(
        `${prefix}/watch/${def.resource}`,
        [...listParams, pretty],
        [
          watchOp(
            `watch${gv}${K}ListForAllNamespaces`,
            'watchlist',
            `watch changes to a list of ${K} objects; ${deprecated}`,
          ),
        ],
      );
    }
  }

  for (const sub of def.subresources ?? []) {
    const info = subresourceInfo(sub);
    const subGvk = subresourceKind(def, version, sub);
    const S = title(sub);
    const path = `${item}/${sub}`;
    const pathParams = [nameParam(K), ...scopeParams];
    if (info.connect) {
      add(
        path,
        pathParams,
        connectOps(def, sub, `${ns}${K}${S}`, gv, subGvk, info.verbs).map((o) => ({ ...o, tag })),
      );
      continue;
    }
    const subRef = component(schemaName(subGvk.group, subGvk.version, subGvk.kind));
    const subOp = (o: OperationSpec): OperationSpec => ({ ...o, gvk: subGvk });
    add(
      path,
      [...pathParams, pretty],
      [
        ...(info.verbs.includes('get')
          ? [
              subOp(
                op({
                  method: 'get',
                  operationId: `read${gv}${ns}${K}${S}`,
                  description: `read the ${sub} of a ${K}`,
                  action: 'get',
                  params: [],
                  responses: ok(subRef),
                }),
              ),
            ]
          : []),
        ...(info.verbs.includes('patch')
          ? [subOp(patchOp(`patch${gv}${ns}${K}${S}`, `partially update the ${sub} of a ${K}`, subRef))]
          : []),
        ...(info.verbs.includes('create')
          ? [
              subOp(
                op({
                  method: 'post',
                  operationId: `create${gv}${ns}${K}${S}`,
                  description: `create the ${sub} of a ${K}`,
                  action: 'post',
                  params: writeParams,
                  body: { payload: subRef, contentTypes: ['*/*'], required: true },
                  responses: ok(subRef, '201', '202'),
                }),
              ),
            ]
          : []),
        ...(info.verbs.includes('update')
          ? [subOp(replaceOp(`replace${gv}${ns}${K}${S}`, `replace the ${sub} of a ${K}`, subRef))]
          : []),
      ],
    );
  }

  function patchOp(operationId: string, description: string, ref: Payload): OperationSpec {
    const body = {
      payload: component(`${META}.Patch`),
      contentTypes: patchContentTypes(def),
      required: true,
    };
    return op({
      method: 'patch',
      operationId,
      description,
      action: 'patch',
      params: patchParams,
      body,
      responses: ok(ref, '201'),
    });
  }
  function replaceOp(operationId: string, description: string, ref: Payload): OperationSpec {
    const body = { payload: ref, contentTypes: ['*/*'], required: true };
    return op({
      method: 'put',
      operationId,
      description,
      action: 'put',
      params: writeParams,
      body,
      responses: ok(ref, '201'),
    });
  }
  return paths;
}

const methodOfVerb: Record<string, Method> = {
  get: 'get',
  create: 'post',
  update: 'put',
  patch: 'patch',
  delete: 'delete',
};

/** log is a read returning text; exec/attach/portforward/proxy are `connect` actions, one per HTTP method. */
function connectOps(
  def: ResourceDefinition,
  sub: string,
  suffix: string,
  gv: string,
  gvk: GroupVersionKind,
  verbs: string[],
): Omit<OperationSpec, 'tag'>[] {
  const text: Payload = { type: 'string' };
  const params = sortParams(connectParams[sub] ?? []);
  if (sub === 'log') {
    return [
      {
        method: 'get',
        operationId: `read${gv}${suffix}`,
        description: `read the log of a ${def.kind}`,
        action: 'get',
        gvk,
        params,
        responses: ok(text),
        produces: [
          'application/json',
          'application/vnd.kubernetes.protobuf',
          'application/yaml',
          'text/plain',
        ],
      },
    ];
  }
  return verbs.map((verb) => {
    const method = methodOfVerb[verb];
    return {
      method,
      operationId: `connect${gv}${title(method)}${suffix}`,
      description: `connect ${method.toUpperCase()} requests to ${sub} of a ${def.kind}`,
      action: 'connect',
      gvk,
      params,
      responses: ok(text),
      produces: ['*/*'],
    };
  });
}
