import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, systemContext, type KubeObject } from '../../api/index.js';
import { endpointsDefinition, endpointsStrategy, formatEndpoints } from './endpoints.js';

const ctx = systemContext();
const ep = (subsets: unknown[]): KubeObject => ({
  metadata: { name: 'e', namespace: 'n' },
  subsets: structuredClone(subsets),
});

function errors(subsets: unknown[]): string[] {
  const obj = ep(subsets);
  endpointsStrategy.defaults!(obj, ctx);
  return endpointsStrategy.validate!(obj, ctx).map(formatFieldError);
}

describe('Endpoints validation', () => {
  const cases: { name: string; subsets: unknown[]; want: string[] }[] = [
    { name: 'typical', subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8443 }] }], want: [] },
    {
      name: 'IPv6 and not-ready',
      subsets: [{ notReadyAddresses: [{ ip: 'fd00::1', hostname: 'a' }] }],
      want: [],
    },
    {
      name: 'no addresses',
      subsets: [{ ports: [{ port: 80 }] }],
      want: ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`'],
    },
    {
      name: 'loopback',
      subsets: [{ addresses: [{ ip: '127.0.0.1' }] }],
      want: [
        'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    },
    {
      name: 'IPv6 loopback',
      subsets: [{ notReadyAddresses: [{ ip: '::1' }] }],
      want: [
        'subsets[0].notReadyAddresses[0].ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    },
    {
      name: 'link-local',
      subsets: [{ addresses: [{ ip: '169.254.169.254' }, { ip: 'fe80::1' }] }],
      want: [
        'subsets[0].addresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'subsets[0].addresses[1].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      ],
    },
    {
      name: 'link-local multicast and unspecified',
      subsets: [{ addresses: [{ ip: '224.0.0.5' }, { ip: '0.0.0.0' }] }],
      want: [
        'subsets[0].addresses[0].ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
        'subsets[0].addresses[1].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      ],
    },
    {
      name: 'not an IP',
      subsets: [{ addresses: [{ ip: 'example.com' }] }],
      want: [
        'subsets[0].addresses[0].ip: Invalid value: "example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'subsets[0].addresses[0].ip: Invalid value: "example.com": must be a valid IP address',
      ],
    },
    {
      name: 'ports: range, names, protocol',
      subsets: [
        {
          addresses: [{ ip: '10.1.0.1' }],
          ports: [
            { port: 70000, name: 'a' },
            { port: 80, protocol: 'ICMP' },
          ],
        },
      ],
      want: [
        'subsets[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'subsets[0].ports[1].name: Required value',
        'subsets[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ],
    },
  ];
  for (const { name, subsets, want } of cases) it(name, () => assert.deepEqual(errors(subsets), want));

  it('ports default to TCP', () => {
    const obj = ep([{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80 }] }]);
    endpointsStrategy.defaults!(obj, ctx);
    assert.deepEqual(obj.subsets, [
      { addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
  });
});

describe('Endpoints canonical form', () => {
  it('ports served by the same addresses share a subset; addresses sorted by IP', () => {
    const obj = ep([
      {
        addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.1' }],
        ports: [{ port: 80, protocol: 'TCP', name: 'a' }],
      },
      {
        addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
        ports: [{ port: 81, protocol: 'TCP', name: 'b' }],
      },
      {
        addresses: [{ ip: '10.0.0.1' }],
        notReadyAddresses: [{ ip: '10.0.0.2' }],
        ports: [{ port: 82, protocol: 'TCP', name: 'c' }],
      },
    ]);
    endpointsStrategy.canonicalize!(obj, ctx);
    assert.deepEqual(obj.subsets, [
      {
        addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
        ports: [
          { port: 80, protocol: 'TCP', name: 'a' },
          { port: 81, protocol: 'TCP', name: 'b' },
        ],
      },
      {
        addresses: [{ ip: '10.0.0.1' }],
        notReadyAddresses: [{ ip: '10.0.0.2' }],
        ports: [{ port: 82, protocol: 'TCP', name: 'c' }],
      },
    ]);
  });
  it('an address both ready and not ready for a port is ready', () => {
    const port = [{ port: 80, protocol: 'TCP' }];
    const obj = ep([
      { notReadyAddresses: [{ ip: '10.0.0.1' }], ports: port },
      { addresses: [{ ip: '10.0.0.1' }], ports: port },
    ]);
    endpointsStrategy.canonicalize!(obj, ctx);
    assert.deepEqual(obj.subsets, [{ addresses: [{ ip: '10.0.0.1' }], ports: port }]);
  });
  it('keeps addresses without ports', () => {
    const obj = ep([{ addresses: [{ ip: '10.0.0.1' }] }]);
    endpointsStrategy.canonicalize!(obj, ctx);
    assert.deepEqual(obj.subsets, [{ addresses: [{ ip: '10.0.0.1' }] }]);
  });
});

describe('Endpoints column', () => {
  it('ip:port list, "+ N more...", <none>', () => {
    assert.equal(formatEndpoints(ep([])), '<none>');
    assert.equal(
      formatEndpoints(ep([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: [{ port: 80 }] }])),
      '10.0.0.1:80,[fd00::1]:80',
    );
    const many = [
      {
        addresses: ['1', '2', '3', '4'].map((n) => ({ ip: `10.0.0.${n}` })),
        ports: [{ port: 80 }, { port: 81 }],
      },
    ];
    assert.equal(formatEndpoints(ep(many)), '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 5 more...');
    assert.equal(
      formatEndpoints(ep([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }])),
      '',
    );
    assert.deepEqual(
      (endpointsDefinition.printerColumns ?? []).map((c) => c.name),
      ['Name', 'Endpoints', 'Age'],
    );
  });
});
