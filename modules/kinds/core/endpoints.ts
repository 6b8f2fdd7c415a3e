/**
 * core/v1 Endpoints: the addresses and ports behind a service of the same name. pgkube runs no endpoints
 * controller, so clients write them; validation refuses addresses no backend can have (loopback, link-local).
 */
import type { ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { fieldError, isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';
import { field, int32, kindSchema, objectReferenceSchema, pointer, str } from '../../api/index.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidIP,
  isValidPortNum,
  validateNonSpecialIP,
  validateStandardFinalizers,
} from '../../validation/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import { repackSubsets } from './endpoints-repack.js';
import { portProtocols } from './service-validation.js';
import { objAt, listAt, strAt, type Obj } from '../values.js';

const coreV1 = 'io.k8s.api.core.v1';

const endpointAddressSchema: Schema = {
  type: 'object',
  description: 'One address of a backend.',
  properties: {
    hostname: str(3, 'Hostname of the backend (a DNS label).'),
    ip: str(1, 'IP address of the backend; not loopback, link-local or link-local multicast.'),
    nodeName: pointer(str(4, 'Node the backend runs on.')),
    targetRef: pointer(field(2, objectReferenceSchema)),
  },
  required: ['ip'],
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${coreV1}.EndpointAddress`,
};

const endpointPortSchema: Schema = {
  type: 'object',
  description: 'One port of the backends.',
  properties: {
    appProtocol: pointer(str(4, 'Application protocol of the port.')),
    name: str(1, 'Name of the port, matching a service port name; required when there are several.'),
    port: int32(2, 'Port number.'),
    protocol: str(3, 'TCP (the default), UDP or SCTP.'),
  },
  required: ['port'],
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${coreV1}.EndpointPort`,
};

const atomicList = (n: number, items: Schema, description: string): Schema =>
  field(n, { type: 'array', items, 'x-kubernetes-list-type': 'atomic' }, description);

const schema = kindSchema({
  description: 'The addresses and ports that implement a service; named as the service.',
  properties: {
    subsets: atomicList(
      2,
      {
        type: 'object',
        description: 'Addresses that share a set of ports.',
        properties: {
          addresses: atomicList(1, endpointAddressSchema, 'Addresses that are ready.'),
          notReadyAddresses: atomicList(2, endpointAddressSchema, 'Addresses that are not ready yet.'),
          ports: atomicList(3, endpointPortSchema, 'Ports of these addresses.'),
        },
        'x-pgkube-ref': `${coreV1}.EndpointSubset`,
      },
      'Groups of addresses with the ports they serve.',
    ),
  },
});

function validateAddress(address: Obj, path: string): FieldError[] {
  const ip = strAt(address.ip);
  const errs = isValidIP(`${path}.ip`, ip);
  const hostname = strAt(address.hostname);
  if (hostname)
    for (const msg of isDNS1123Label(hostname))
      errs.push(fieldError.invalid(`${path}.hostname`, hostname, msg));
  if (address.nodeName != null) {
    const node = strAt(address.nodeName);
    for (const msg of isDNS1123Subdomain(node)) errs.push(fieldError.invalid(`${path}.nodeName`, node, msg));
  }
  errs.push(...validateNonSpecialIP(`${path}.ip`, ip));
  return errs;
}

function validatePort(port: Obj, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = strAt(port.name);
  if (requireName && !name) errs.push(fieldError.required(`${path}.name`));
  else if (name)
    for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
  const num = typeof port.port === 'number' ? port.port : 0;
  for (const msg of isValidPortNum(num)) errs.push(fieldError.invalid(`${path}.port`, num, msg));
  const protocol = strAt(port.protocol);
  if (!protocol) errs.push(fieldError.required(`${path}.protocol`));
  else if (!portProtocols.includes(protocol))
    errs.push(fieldError.notSupported(`${path}.protocol`, protocol, portProtocols));
  if (port.appProtocol != null) {
    const app = strAt(port.appProtocol);
    for (const msg of isQualifiedName(app)) errs.push(fieldError.invalid(`${path}.appProtocol`, app, msg));
  }
  return errs;
}

/** kube's ValidateEndpoints: subsets, their addresses and ports. */
export function validateEndpoints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  listAt(obj.subsets).forEach((item, i) => {
    const subset = objAt(item);
    const at = `subsets[${i}]`;
    const ready = listAt(subset.addresses);
    const notReady = listAt(subset.notReadyAddresses);
    if (ready.length === 0 && notReady.length === 0)
      errs.push(fieldError.required(at, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...validateAddress(objAt(a), `${at}.addresses[${j}]`)));
    notReady.forEach((a, j) => errs.push(...validateAddress(objAt(a), `${at}.notReadyAddresses[${j}]`)));
    const ports = listAt(subset.ports);
    ports.forEach((p, j) => errs.push(...validatePort(objAt(p), ports.length > 1, `${at}.ports[${j}]`)));
  });
  return errs;
}

export const endpointsStrategy: Strategy = {
  defaults(obj) {
    for (const subset of listAt(obj.subsets))
      for (const port of listAt(objAt(subset).ports))
        if (isPlainObject(port) && !port.protocol) port.protocol = 'TCP';
  },
  validate: (obj) => [
    ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
    ...validateEndpoints(obj),
  ],
  canonicalize(obj) {
    if (Array.isArray(obj.subsets)) obj.subsets = repackSubsets(obj.subsets);
  },
};

/** kubectl's ENDPOINTS cell: up to three ready "ip:port" (or bare ip) entries, then "+ N more..."; "<none>" without subsets. */
export function formatEndpoints(obj: KubeObject): string {
  const subsets = listAt(obj.subsets).map(objAt);
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  const take = (entry: string): void => {
    if (list.length === max) more = true;
    else list.push(entry);
  };
  for (const subset of subsets) {
    const addresses = listAt(subset.addresses).map((a) => strAt(objAt(a).ip));
    const ports = listAt(subset.ports).map(objAt);
    if (ports.length === 0) {
      count += addresses.length;
      addresses.forEach(take);
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const ip of addresses) take(`${ip.includes(':') ? `[${ip}]` : ip}:${String(port.port ?? 0)}`);
    }
  }
  const text = list.join(',');
  // kube leaves the cell empty when every address is not ready
  return more ? `${text} + ${count - max} more...` : text;
}

export const endpointsDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'endpoints',
  singular: 'endpoints',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  scope: 'Namespaced',
  shortNames: ['ep'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: true,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Endpoints',
      type: 'string',
      description: 'Addresses and ports of the backends.',
      priority: 0,
      jsonPath: '.subsets',
      cell: formatEndpoints,
    },
    ageColumn,
  ],
  strategy: endpointsStrategy,
};
