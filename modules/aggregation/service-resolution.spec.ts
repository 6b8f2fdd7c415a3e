import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { resolveService, type ServiceObjects } from './service-resolution.js';

const ref = { namespace: 'pgkube', name: 'widgets-api', port: 443 };
const meta = (kind: string): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: 'widgets-api', namespace: 'pgkube' },
});
const service = (spec: object): KubeObject => ({ ...meta('Service'), spec });
const clusterIp = service({ type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443 }] });
const endpoints = (subsets: object[]): KubeObject => ({ ...meta('Endpoints'), subsets });
const slice = (endpoints: object[], ports: object[]): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: {
    name: 'widgets-api-abc',
    namespace: 'pgkube',
    labels: { 'kubernetes.io/service-name': 'widgets-api' },
  },
  addressType: 'IPv4',
  endpoints,
  ports,
});
const first = () => 0;

describe('resolveService', () => {
  const cases: Array<[string, ServiceObjects, ReturnType<typeof resolveService>]> = [
    [
      'no Service',
      { slices: [] },
      { ok: false, reason: 'ServiceNotFound', message: 'service/widgets-api in "pgkube" is not present' },
    ],
    [
      'ExternalName: its name (without the root dot) and the APIService port',
      { service: service({ type: 'ExternalName', externalName: 'localhost.' }), slices: [] },
      { ok: true, host: 'localhost', port: 443 },
    ],
    [
      'a Service without the APIService port',
      { service: service({ type: 'ClusterIP', ports: [{ port: 80 }] }), slices: [] },
      {
        ok: false,
        reason: 'ServicePortError',
        message: 'service/widgets-api in "pgkube" is not listening on port 443',
      },
    ],
    [
      'no Endpoints and no EndpointSlices',
      { service: clusterIp, slices: [] },
      {
        ok: false,
        reason: 'EndpointsNotFound',
        message: 'cannot find endpoints for service/widgets-api in "pgkube"',
      },
    ],
    [
      'Endpoints without a port of that name',
      {
        service: clusterIp,
        endpoints: endpoints([{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'http', port: 80 }] }]),
        slices: [],
      },
      {
        ok: false,
        reason: 'MissingEndpoints',
        message: 'endpoints for service/widgets-api in "pgkube" have no addresses with port name "https"',
      },
    ],
    [
      'Endpoints with only not-ready addresses',
      {
        service: clusterIp,
        endpoints: endpoints([
          { notReadyAddresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 8443 }] },
        ]),
        slices: [],
      },
      {
        ok: false,
        reason: 'MissingEndpoints',
        message: 'endpoints for service/widgets-api in "pgkube" have no addresses with port name "https"',
      },
    ],
    [
      'an Endpoints address, the endpoint port of the service port name',
      {
        service: clusterIp,
        endpoints: endpoints([{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 8443 }] }]),
        slices: [],
      },
      { ok: true, host: '10.0.0.5', port: 8443 },
    ],
    [
      'EndpointSlices when there are no Endpoints; not-ready endpoints skipped',
      {
        service: clusterIp,
        slices: [
          slice(
            [
              { addresses: ['10.0.0.6'], conditions: { ready: false } },
              { addresses: ['10.0.0.7'], conditions: { ready: true } },
            ],
            [{ name: 'https', port: 9443 }],
          ),
        ],
      },
      { ok: true, host: '10.0.0.7', port: 9443 },
    ],
    [
      'an unnamed service port matches unnamed endpoint ports',
      {
        service: service({ ports: [{ port: 443 }] }),
        endpoints: endpoints([{ addresses: [{ ip: '10.0.0.8' }], ports: [{ port: 6443 }] }]),
        slices: [],
      },
      { ok: true, host: '10.0.0.8', port: 6443 },
    ],
  ];
  for (const [name, objects, expected] of cases) {
    it(name, () => assert.deepEqual(resolveService(ref, objects, first), expected));
  }

  it('spreads requests over the addresses', () => {
    const objects = {
      service: clusterIp,
      endpoints: endpoints([
        { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'https', port: 8443 }] },
      ]),
      slices: [],
    };
    assert.deepEqual(
      resolveService(ref, objects, (n) => n - 1),
      { ok: true, host: '10.0.0.2', port: 8443 },
    );
  });
});
