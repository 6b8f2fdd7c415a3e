import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, systemContext, type KubeObject } from '../../api/index.js';
import { endpointSliceStrategy, formatSliceEndpoints, formatSlicePorts } from './endpointslice.js';

const ctx = systemContext();
const slice = (body: Record<string, unknown>): KubeObject => ({
  metadata: { name: 's', namespace: 'n', labels: { 'kubernetes.io/service-name': 'svc' } },
  ...structuredClone(body),
});

function errors(body: Record<string, unknown>): string[] {
  const obj = slice(body);
  endpointSliceStrategy.defaults!(obj, ctx);
  endpointSliceStrategy.prepareForCreate!(obj, ctx);
  return endpointSliceStrategy.validate!(obj, ctx).map(formatFieldError);
}

describe('EndpointSlice validation', () => {
  const cases: { name: string; body: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'typical IPv4',
      body: {
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.0.1'], conditions: { ready: true } }],
        ports: [{ port: 443, name: 'https' }],
      },
      want: [],
    },
    {
      name: 'FQDN',
      body: { addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com.'] }] },
      want: [],
    },
    { name: 'address type required', body: { endpoints: [] }, want: ['addressType: Required value'] },
    {
      name: 'unknown address type',
      body: { addressType: 'IP', endpoints: [] },
      want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    },
    {
      name: 'addresses required',
      body: { addressType: 'IPv4', endpoints: [{ addresses: [] }] },
      want: ['endpoints[0].addresses: Required value: must contain at least 1 address'],
    },
    {
      name: 'IPv6 in an IPv4 slice',
      body: { addressType: 'IPv4', endpoints: [{ addresses: ['fd00::1'] }] },
      want: ['endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address'],
    },
    {
      name: 'loopback',
      body: { addressType: 'IPv6', endpoints: [{ addresses: ['::1'] }] },
      want: [
        'endpoints[0].addresses[0]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    },
    {
      name: 'FQDN needs two labels',
      body: { addressType: 'FQDN', endpoints: [{ addresses: ['localhost'] }] },
      want: [
        'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
      ],
    },
    {
      name: 'too many addresses',
      body: {
        addressType: 'IPv4',
        endpoints: [{ addresses: Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i % 250) + 1}`) }],
      },
      want: ['endpoints[0].addresses: Too many: 101: must have at most 100 items'],
    },
    {
      name: 'too many endpoints',
      body: {
        addressType: 'IPv4',
        endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] })),
      },
      want: ['endpoints: Too many: 1001: must have at most 1000 items'],
    },
    {
      name: 'too many ports',
      body: {
        addressType: 'IPv4',
        endpoints: [],
        ports: Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, port: i + 1 })),
      },
      want: ['ports: Too many: 101: must have at most 100 items'],
    },
    {
      name: 'duplicate port names, bad protocol, bad hostname',
      body: {
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.0.1'], hostname: 'A' }],
        ports: [{ port: 1 }, { port: 2, protocol: 'ICMP' }],
      },
      want: [
        "endpoints[0].hostname: Invalid value: \"A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        'ports[1].name: Duplicate value: ""',
        'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ],
    },
    {
      name: 'zone hints: at most 8, unique, label values',
      body: {
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.1.0.1'], hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'b c' }] } },
          {
            addresses: ['10.1.0.2'],
            hints: { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` })) },
          },
        ],
      },
      want: [
        'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
        "endpoints[0].hints.forZones[2].name: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        'endpoints[1].hints.forZones: Too many: 9: must have at most 8 items',
      ],
    },
  ];
  for (const { name, body, want } of cases) it(name, () => assert.deepEqual(errors(body), want));

  it('defaults: port name "" and protocol TCP, conditions {}; deprecatedTopology dropped', () => {
    const obj = slice({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.0.1'], deprecatedTopology: { a: 'b' } }],
      ports: [{ port: 80 }],
    });
    endpointSliceStrategy.defaults!(obj, ctx);
    endpointSliceStrategy.prepareForCreate!(obj, ctx);
    assert.deepEqual(obj.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
    assert.deepEqual(obj.endpoints, [{ addresses: ['10.1.0.1'], conditions: {} }]);
  });

  it('addressType is immutable; a label change bumps generation', () => {
    const old = slice({ addressType: 'IPv4', endpoints: [] });
    old.metadata.generation = 1;
    const obj = slice({ addressType: 'IPv6', endpoints: [] });
    obj.metadata.labels = { 'kubernetes.io/service-name': 'other' };
    obj.metadata.generation = 1;
    endpointSliceStrategy.prepareForUpdate!(obj, old, ctx);
    assert.equal(obj.metadata.generation, 2);
    assert.deepEqual(endpointSliceStrategy.validateUpdate!(obj, old, ctx).map(formatFieldError), [
      'addressType: Invalid value: "IPv6": field is immutable',
    ]);
  });
});

describe('EndpointSlice columns', () => {
  it('ports and endpoints as kube prints them', () => {
    const obj = slice({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }],
      ports: [{ port: 80 }, { name: 'named' }, {}],
    });
    assert.equal(formatSlicePorts(obj), '80,named,*');
    assert.equal(formatSliceEndpoints(obj), '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...');
    assert.equal(formatSlicePorts(slice({})), '<unset>');
    assert.equal(formatSliceEndpoints(slice({})), '<unset>');
  });
});
