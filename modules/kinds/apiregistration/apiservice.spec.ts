import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, systemContext, type KubeObject } from '../../api/index.js';
import {
  apiServiceDefinition,
  apiServiceStatusStrategy,
  apiServiceStrategy,
  availableCell,
  serviceCell,
} from './apiservice.js';
import { validateApiService } from './apiservice-validation.js';
import { apiServiceName, setApiServiceCondition, type APIService } from './apiservice-types.js';

const ca = Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64');

function remote(spec: Record<string, unknown> = {}, name = 'v1.example.com'): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: {
      group: 'example.com',
      version: 'v1',
      groupPriorityMinimum: 1000,
      versionPriority: 15,
      service: { namespace: 'ns', name: 'api', port: 443 },
      ...spec,
    },
  };
}

const local = (spec: Record<string, unknown> = {}, name = 'v1.example.com') =>
  remote({ service: undefined, ...spec }, name);

const messages = (obj: APIService) => validateApiService(obj).map(formatFieldError);

describe('APIService validation refuses what kube-aggregator refuses', () => {
  const dns1035 =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic " +
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for " +
    "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  const cases: [string, APIService, string[]][] = [
    [
      'a name other than <version>.<group>',
      remote({}, 'example'),
      ['metadata.name: Invalid value: "example": must be `spec.version+"."+spec.group`: "v1.example.com"'],
    ],
    [
      'an empty group for another version than v1',
      local({ group: '', version: 'v2' }, 'v2.'),
      ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube'],
    ],
    [
      'a group that is no DNS subdomain',
      local({ group: 'Example.com' }, 'v1.Example.com'),
      [
        'spec.group: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case ' +
          "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. " +
          "'example.com', regex used for validation is " +
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'a version that is no DNS-1035 label',
      local({ version: '1v' }, '1v.example.com'),
      [`spec.version: Invalid value: "1v": ${dns1035}`],
    ],
    [
      'priorities out of range',
      local({ groupPriorityMinimum: 20001, versionPriority: 0 }),
      [
        'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
      ],
    ],
    [
      'priorities left out (Go reads them as 0)',
      local({ groupPriorityMinimum: undefined, versionPriority: 1001 }),
      [
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
      ],
    ],
    [
      'a local APIService with a caBundle or insecureSkipTLSVerify',
      local({ caBundle: Buffer.from('abcd').toString('base64'), insecureSkipTLSVerify: true }),
      [
        'spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle',
        'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
      ],
    ],
    [
      'a service without namespace and name, with a bad port',
      remote({ service: { port: 70000 } }),
      [
        'spec.service.namespace: Required value',
        'spec.service.name: Required value',
        'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'insecureSkipTLSVerify together with a caBundle',
      remote({ insecureSkipTLSVerify: true, caBundle: ca }),
      ['spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present'],
    ],
    [
      'no spec at all',
      { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'x' } },
      [
        'metadata.name: Invalid value: "x": must be `spec.version+"."+spec.group`: "."',
        'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
        `spec.version: Invalid value: "": ${dns1035}`,
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
      ],
    ],
  ];
  for (const [what, obj, want] of cases) {
    it(what, () => assert.deepEqual(messages(obj), want));
  }

  it('leaves a name that is no path segment to the generic metadata check', () => {
    assert.deepEqual(messages(remote({}, 'v1/example.com')), []);
  });
});

describe('APIService validation accepts', () => {
  const cases: [string, APIService][] = [
    ['the legacy core group, v1.', local({ group: '', version: 'v1' }, 'v1.')],
    ['a local group/version', local()],
    ['a remote one with a CA bundle', remote({ caBundle: ca })],
    ['a remote one skipping TLS verification', remote({ insecureSkipTLSVerify: true })],
    ['the extremes of the ranges', remote({ groupPriorityMinimum: 20000, versionPriority: 1000 })],
    [
      'priority 1 and port 65535',
      remote({
        groupPriorityMinimum: 1,
        versionPriority: 1,
        service: { namespace: 'a', name: 'b', port: 65535 },
      }),
    ],
  ];
  for (const [what, obj] of cases) {
    it(what, () => assert.deepEqual(messages(obj), []));
  }
  it('names are <version>.<group>', () => {
    assert.equal(apiServiceName('', 'v1'), 'v1.');
    assert.equal(apiServiceName('rbac.authorization.k8s.io', 'v1'), 'v1.rbac.authorization.k8s.io');
  });
});

describe('APIService strategy', () => {
  const ctx = systemContext();
  it('defaults the service port to 443', () => {
    const obj = remote({ service: { namespace: 'ns', name: 'api' } });
    apiServiceStrategy.defaults!(obj, ctx);
    assert.deepEqual(obj.spec!.service, { namespace: 'ns', name: 'api', port: 443 });
    const withPort = remote({ service: { namespace: 'ns', name: 'api', port: 8443 } });
    apiServiceStrategy.defaults!(withPort, ctx);
    assert.equal(withPort.spec!.service!.port, 8443);
  });

  it('a create drops the status it was sent; a local one is Available from the start', () => {
    const sent = { conditions: [{ type: 'Available', status: 'False', reason: 'Made' }] };
    const r = { ...remote(), status: structuredClone(sent) };
    apiServiceStrategy.prepareForCreate!(r, ctx);
    assert.deepEqual(r.status, {});
    const l: APIService = { ...local(), status: structuredClone(sent) };
    apiServiceStrategy.prepareForCreate!(l, ctx);
    assert.equal(l.status!.conditions!.length, 1);
    const [c] = l.status!.conditions!;
    assert.deepEqual(
      { type: c.type, status: c.status, reason: c.reason, message: c.message },
      {
        type: 'Available',
        status: 'True',
        reason: 'Local',
        message: 'Local APIServices are always available',
      },
    );
    assert.match(c.lastTransitionTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('an update keeps the stored status; a status write keeps spec and the metadata it may not change', () => {
    const old = { ...remote(), status: { conditions: [{ type: 'Available', status: 'True' }] } };
    old.metadata.labels = { a: 'b' };
    const next = { ...remote({ versionPriority: 20 }), status: { conditions: [] } } as KubeObject;
    apiServiceStrategy.prepareForUpdate!(next, old, ctx);
    assert.deepEqual(next.status, old.status);

    const statusWrite = {
      ...remote({ versionPriority: 99 }),
      status: { conditions: [{ type: 'Available', status: 'False' }] },
    } as KubeObject;
    statusWrite.metadata.labels = { changed: 'yes' };
    statusWrite.metadata.annotations = { added: 'yes' };
    apiServiceStatusStrategy.prepareForUpdate!(statusWrite, old, ctx);
    assert.equal((statusWrite.spec as { versionPriority: number }).versionPriority, 15);
    assert.deepEqual(statusWrite.metadata.labels, { a: 'b' });
    assert.equal(statusWrite.metadata.annotations, undefined);
    assert.deepEqual(statusWrite.status, { conditions: [{ type: 'Available', status: 'False' }] });
  });

  it('a status write may only say True, False or Unknown', () => {
    const obj = {
      ...remote(),
      status: {
        conditions: [
          { type: 'Available', status: 'True' },
          { type: 'Other', status: 'Maybe' },
        ],
      },
    };
    assert.deepEqual(apiServiceStatusStrategy.validateUpdate!(obj, obj, ctx).map(formatFieldError), [
      'status.conditions[1].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    ]);
  });

  it('setting a condition keeps its transition time while its status stays', () => {
    const obj: APIService = remote();
    setApiServiceCondition(obj, {
      type: 'Available',
      status: 'False',
      lastTransitionTime: 't1',
      reason: 'A',
    });
    setApiServiceCondition(obj, {
      type: 'Available',
      status: 'False',
      lastTransitionTime: 't2',
      reason: 'B',
    });
    assert.deepEqual(obj.status!.conditions, [
      { type: 'Available', status: 'False', lastTransitionTime: 't1', reason: 'B', message: undefined },
    ]);
    setApiServiceCondition(obj, { type: 'Available', status: 'True', lastTransitionTime: 't3' });
    assert.equal(obj.status!.conditions![0].lastTransitionTime, 't3');
  });
});

describe('APIService table columns (kube-aggregator printer)', () => {
  const withAvailable = (condition?: Record<string, string>): KubeObject => ({
    ...remote(),
    status: condition ? { conditions: [condition] } : {},
  });
  const cases: [string, KubeObject, string, string][] = [
    [
      'local, available',
      { ...local(), status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } },
      'Local',
      'True',
    ],
    ['remote without conditions', withAvailable(), 'ns/api', 'Unknown'],
    [
      'remote, unavailable with a reason',
      withAvailable({ type: 'Available', status: 'False', reason: 'MissingEndpoints' }),
      'ns/api',
      'False (MissingEndpoints)',
    ],
    [
      'remote, unavailable without a reason',
      withAvailable({ type: 'Available', status: 'False' }),
      'ns/api',
      'False',
    ],
    [
      'remote, unknown with a reason',
      withAvailable({ type: 'Available', status: 'Unknown', reason: 'NoCheck' }),
      'ns/api',
      'Unknown (NoCheck)',
    ],
    ['only another condition', withAvailable({ type: 'Other', status: 'True' }), 'ns/api', 'Unknown'],
  ];
  for (const [what, obj, service, available] of cases) {
    it(what, () => {
      assert.equal(serviceCell(obj), service);
      assert.equal(availableCell(obj), available);
    });
  }
  it('columns are NAME, SERVICE, AVAILABLE, AGE', () => {
    assert.deepEqual(
      apiServiceDefinition.printerColumns!.map((c) => c.name),
      ['Name', 'Service', 'Available', 'Age'],
    );
  });
});
