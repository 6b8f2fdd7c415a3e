/**
 * discovery.k8s.io/v1 EndpointSlice: a slice of a service's backends (label kubernetes.io/service-name), of
 * one address type. Served as data: pgkube runs no EndpointSlice controller, clients write them.
 */
import type { ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { fieldError, isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';
import {
  bool,
  field,
  int32,
  kindSchema,
  objectReferenceSchema,
  pointer,
  str,
  stringMap,
} from '../../api/index.js';
import {
  fieldImmutableErrorMsg,
  isDNS1123Label,
  isDNS1123Subdomain,
  isFullyQualifiedDomainName,
  isQualifiedName,
  isValidIPv4Address,
  isValidIPv6Address,
  isValidLabelValue,
  validateLabels,
  validateNonSpecialIP,
} from '../../validation/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import { objAt, listAt, strAt, type Obj } from '../values.js';

const discoveryV1 = 'io.k8s.api.discovery.v1';
export const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const portProtocols = ['SCTP', 'TCP', 'UDP'];
export const maxEndpoints = 1000;
export const maxPorts = 100;
export const maxAddresses = 100;
const maxTopologyLabels = 16;
const maxZoneHints = 8;

const endpointSchema: Schema = {
  type: 'object',
  description: 'One backend of the service.',
  properties: {
    addresses: field(
      1,
      { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      'Addresses of the backend (1 to 100), of the slice addressType; consumers use the first.',
    ),
    conditions: field(2, {
      type: 'object',
      description: 'The state of the backend.',
      properties: {
        ready: pointer(bool(1, 'Whether the backend is ready for traffic; unset means ready.')),
        serving: pointer(bool(2, 'Whether the backend serves, even while terminating.')),
        terminating: pointer(bool(3, 'Whether the backend is terminating.')),
      },
      'x-pgkube-ref': `${discoveryV1}.EndpointConditions`,
    }),
    deprecatedTopology: stringMap(5, 'Deprecated topology labels; dropped on writes through v1.'),
    hints: pointer(
      field(8, {
        type: 'object',
        description: 'Hints for topology-aware routing.',
        properties: {
          forZones: field(1, {
            type: 'array',
            description: 'Zones that should consume this backend.',
            items: {
              type: 'object',
              description: 'A zone that should consume the backend.',
              properties: { name: str(1, 'Name of the zone.') },
              required: ['name'],
              'x-pgkube-ref': `${discoveryV1}.ForZone`,
            },
            'x-kubernetes-list-type': 'atomic',
          }),
        },
        'x-pgkube-ref': `${discoveryV1}.EndpointHints`,
      }),
    ),
    hostname: pointer(str(3, 'Hostname of the backend (a DNS label).')),
    nodeName: pointer(str(6, 'Node the backend runs on.')),
    targetRef: pointer(field(4, objectReferenceSchema)),
    zone: pointer(str(7, 'Zone the backend is in.')),
  },
  required: ['addresses'],
  'x-pgkube-ref': `${discoveryV1}.Endpoint`,
};

const endpointPortSchema: Schema = {
  type: 'object',
  description: 'A port the backends serve.',
  properties: {
    appProtocol: pointer(str(4, 'Application protocol of the port.')),
    name: pointer(str(1, 'Name of the port, matching a service port name; empty by default.')),
    port: pointer(int32(3, 'Port number; unset means all ports.')),
    protocol: pointer(str(2, 'TCP (the default), UDP or SCTP.')),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${discoveryV1}.EndpointPort`,
};

const schema = kindSchema({
  description: 'A subset of the backends of a service, all with addresses of one type.',
  properties: {
    addressType: str(4, 'Type of the addresses: IPv4, IPv6 or FQDN. Immutable.'),
    endpoints: field(2, {
      type: 'array',
      description: 'The backends, at most 1000.',
      items: endpointSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    ports: field(3, {
      type: 'array',
      description: 'Ports every backend of the slice serves, at most 100.',
      items: endpointPortSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
  },
  required: ['addressType', 'endpoints'],
});

function validateAddress(type: string, address: string, path: string): FieldError[] {
  switch (type) {
    case 'IPv4':
      return [...isValidIPv4Address(path, address), ...validateNonSpecialIP(path, address)];
    case 'IPv6':
      return [...isValidIPv6Address(path, address), ...validateNonSpecialIP(path, address)];
    case 'FQDN':
      return isFullyQualifiedDomainName(path, address);
  }
  return [];
}

function validateSliceEndpoints(type: string, endpoints: unknown[]): FieldError[] {
  if (endpoints.length > maxEndpoints)
    return [fieldError.tooMany('endpoints', endpoints.length, maxEndpoints)];
  const errs: FieldError[] = [];
  endpoints.forEach((item, i) => {
    const endpoint = objAt(item);
    const at = `endpoints[${i}]`;
    const addresses = listAt(endpoint.addresses);
    if (addresses.length === 0)
      errs.push(fieldError.required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses)
      errs.push(fieldError.tooMany(`${at}.addresses`, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...validateAddress(type, strAt(a), `${at}.addresses[${j}]`)));
    if (endpoint.nodeName != null) {
      const node = strAt(endpoint.nodeName);
      for (const msg of isDNS1123Subdomain(node)) errs.push(fieldError.invalid(`${at}.nodeName`, node, msg));
    }
    const topology = objAt(endpoint.deprecatedTopology);
    if (Object.keys(topology).length > maxTopologyLabels)
      errs.push(
        fieldError.tooMany(`${at}.deprecatedTopology`, Object.keys(topology).length, maxTopologyLabels),
      );
    errs.push(...validateLabels(endpoint.deprecatedTopology, `${at}.deprecatedTopology`));
    if (endpoint.hostname != null) {
      const hostname = strAt(endpoint.hostname);
      for (const msg of isDNS1123Label(hostname))
        errs.push(fieldError.invalid(`${at}.hostname`, hostname, msg));
    }
    if (endpoint.hints != null) errs.push(...validateHints(objAt(endpoint.hints), `${at}.hints`));
  });
  return errs;
}

function validateHints(hints: Obj, path: string): FieldError[] {
  const zones = listAt(hints.forZones);
  const at = `${path}.forZones`;
  if (zones.length > maxZoneHints) return [fieldError.tooMany(at, zones.length, maxZoneHints)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((zone, i) => {
    const name = strAt(objAt(zone).name);
    const zonePath = `${at}[${i}].name`;
    if (seen.has(name)) errs.push(fieldError.duplicate(zonePath, name));
    else seen.add(name);
    for (const msg of isValidLabelValue(name)) errs.push(fieldError.invalid(zonePath, name, msg));
  });
  return errs;
}

function validateSlicePorts(ports: unknown[]): FieldError[] {
  if (ports.length > maxPorts) return [fieldError.tooMany('ports', ports.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((item, i) => {
    const port = objAt(item);
    const at = `ports[${i}]`;
    const name = strAt(port.name);
    if (name) for (const msg of isDNS1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else names.add(name);
    if (port.protocol == null) errs.push(fieldError.required(`${at}.protocol`));
    else if (!portProtocols.includes(strAt(port.protocol)))
      errs.push(fieldError.notSupported(`${at}.protocol`, port.protocol, portProtocols));
    if (port.appProtocol != null) {
      const app = strAt(port.appProtocol);
      for (const msg of isQualifiedName(app)) errs.push(fieldError.invalid(`${at}.appProtocol`, app, msg));
    }
  });
  return errs;
}

/** kube's ValidateEndpointSlice (create rules: the deprecated "IP" address type is not accepted). */
export function validateEndpointSlice(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = strAt(obj.addressType);
  if (!type) errs.push(fieldError.required('addressType'));
  else if (!addressTypes.includes(type))
    errs.push(fieldError.notSupported('addressType', type, addressTypes));
  errs.push(...validateSliceEndpoints(type, listAt(obj.endpoints)));
  errs.push(...validateSlicePorts(listAt(obj.ports)));
  return errs;
}

/** writes through v1 drop the deprecated topology map, unless an update leaves the endpoints untouched */
function dropTopology(obj: KubeObject, old?: KubeObject): void {
  if (old && JSON.stringify(old.endpoints ?? null) === JSON.stringify(obj.endpoints ?? null)) return;
  for (const endpoint of listAt(obj.endpoints))
    if (isPlainObject(endpoint)) delete endpoint.deprecatedTopology;
}

export const endpointSliceStrategy: Strategy = {
  defaults(obj) {
    // conditions is a Go value struct: kube always writes it, {} when empty
    for (const endpoint of listAt(obj.endpoints))
      if (isPlainObject(endpoint) && !isPlainObject(endpoint.conditions)) endpoint.conditions = {};
    for (const port of listAt(obj.ports)) {
      if (!isPlainObject(port)) continue;
      if (port.name == null) port.name = '';
      if (port.protocol == null) port.protocol = 'TCP';
    }
  },
  prepareForCreate: (obj) => dropTopology(obj),
  prepareForUpdate(obj, old) {
    // a label change counts as a change of the slice: consumers key on kubernetes.io/service-name
    if (JSON.stringify(obj.metadata.labels ?? {}) !== JSON.stringify(old.metadata.labels ?? {}))
      obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    dropTopology(obj, old);
  },
  validate: (obj) => validateEndpointSlice(obj),
  validateUpdate(obj, old) {
    return strAt(obj.addressType) === strAt(old.addressType)
      ? []
      : [fieldError.invalid('addressType', strAt(obj.addressType), fieldImmutableErrorMsg)];
  },
};

/** kube's listWithMoreString: up to three entries, then "+ N more...", "<unset>" for none. */
function listWithMore(entries: string[]): string {
  const max = 3;
  const text = entries.slice(0, max).join(',');
  if (entries.length > max) return `${text} + ${entries.length - max} more...`;
  return text || '<unset>';
}

export const formatSlicePorts = (obj: KubeObject): string =>
  listWithMore(
    listAt(obj.ports).map((item) => {
      const port = objAt(item);
      if (typeof port.port === 'number') return String(port.port);
      return typeof port.name === 'string' ? port.name : '*';
    }),
  );

export const formatSliceEndpoints = (obj: KubeObject): string =>
  listWithMore(listAt(obj.endpoints).flatMap((e) => listAt(objAt(e).addresses).map(strAt)));

export const endpointSliceDefinition: ResourceDefinition = {
  group: 'discovery.k8s.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'endpointslices',
  singular: 'endpointslice',
  kind: 'EndpointSlice',
  listKind: 'EndpointSliceList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: false,
  tracksGeneration: true,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'AddressType',
      type: 'string',
      description: 'Type of the addresses of the slice.',
      priority: 0,
      jsonPath: '.addressType',
      cell: (obj) => strAt(obj.addressType),
    },
    {
      name: 'Ports',
      type: 'string',
      description: 'Ports the backends serve.',
      priority: 0,
      jsonPath: '.ports',
      cell: formatSlicePorts,
    },
    {
      name: 'Endpoints',
      type: 'string',
      description: 'Addresses of the backends.',
      priority: 0,
      jsonPath: '.endpoints',
      cell: formatSliceEndpoints,
    },
    ageColumn,
  ],
  strategy: endpointSliceStrategy,
};
