/**
 * What both OpenAPI renderers consume: operations as data (paths, methods, ids, parameters, bodies, responses)
 * and the media types kube offers for them.
 */
import type { ResourceDefinition } from '../registry/index.js';
import type { GroupVersionKind } from '../discovery/index.js';
import { isBuiltInGroup } from './names.js';
import type { ParamSpec } from './params.js';
import { hasProtobufNumbers } from './sources.js';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** A response or body schema: a component, or a plain string for streamed data. */
export type Payload = { component: string } | { type: 'string' };

export interface ResponseSpec {
  code: string;
  description: string;
  payload?: Payload;
}

export interface OperationSpec {
  method: Method;
  operationId: string;
  description: string;
  tag: string;
  action?: string;
  gvk?: GroupVersionKind;
  params: ParamSpec[];
  body?: { payload: Payload; contentTypes: string[]; required: boolean };
  responses: ResponseSpec[];
  /** media types of the responses */
  produces: string[];
}

export interface PathSpec {
  path: string;
  params: ParamSpec[];
  ops: OperationSpec[];
}

export const JSON_ = 'application/json';
export const YAML_ = 'application/yaml';
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const unauthorized: ResponseSpec = { code: '401', description: 'Unauthorized' };

export const title = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const component = (name: string): Payload => ({ component: name });
export const ok = (payload: Payload, ...extra: ('201' | '202')[]): ResponseSpec[] => [
  { code: '200', description: 'OK', payload },
  ...extra.map((code) => ({ code, description: code === '201' ? 'Created' : 'Accepted', payload })),
  unauthorized,
];

/** Media types offered for objects of `def`: Protobuf only for built-in kinds that define its field numbers. */
export function mediaTypes(def: ResourceDefinition, streaming: boolean): string[] {
  const protobuf = isBuiltInGroup(def.group) && hasProtobufNumbers(def.schema);
  const types = [JSON_, YAML_, ...(protobuf ? [PROTOBUF] : [])];
  if (streaming) types.push(`${JSON_};stream=watch`, ...(protobuf ? [`${PROTOBUF};stream=watch`] : []));
  return types.sort();
}

export function patchContentTypes(def: ResourceDefinition): string[] {
  const types = [
    'application/apply-patch+yaml',
    'application/json-patch+json',
    'application/merge-patch+json',
  ];
  // strategic merge patch needs Go struct tags kube only has for its own kinds
  if (isBuiltInGroup(def.group)) types.push('application/strategic-merge-patch+json');
  return types.sort();
}
