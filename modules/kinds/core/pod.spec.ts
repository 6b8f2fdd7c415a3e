import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type KubeObject } from '../../api/index.js';
import { podDefinition, podStrategy } from './pod.js';
import { defaultPod, imageTag } from './pod-defaults.js';
import { qosClass } from './pod-qos.js';
import { validatePodUpdate } from './pod-update.js';

const ctx = { user: { username: 'u', groups: [] }, dryRun: false, warnings: [] } as never;

function pod(spec: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec },
    ...extra,
  };
}

/** The pod as a create makes it: defaults, then what prepareForCreate adds. */
function created(spec: Record<string, unknown> = {}): KubeObject {
  const p = pod(spec);
  podStrategy.defaults!(p, ctx);
  podStrategy.prepareForCreate!(p, ctx);
  return p;
}

const createErrors = (spec: Record<string, unknown>): string[] => {
  const p = pod(spec);
  podStrategy.defaults!(p, ctx);
  return podStrategy.validate!(p, ctx).map(formatFieldError);
};

describe('pod defaults', () => {
  it('fills kube v1.32’s defaults', () => {
    const p = created({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: 1, memory: '1Gi' } },
          livenessProbe: { httpGet: { port: 80 } },
        },
      ],
      volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 's' } }],
    });
    const spec = p.spec as Record<string, any>;
    assert.equal(spec.restartPolicy, 'Always');
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.schedulerName, 'default-scheduler');
    assert.equal(spec.terminationGracePeriodSeconds, 30);
    assert.equal(spec.enableServiceLinks, true);
    assert.deepEqual(spec.securityContext, {});
    const c = spec.containers[0];
    assert.equal(c.terminationMessagePath, '/dev/termination-log');
    assert.equal(c.terminationMessagePolicy, 'File');
    assert.equal(c.imagePullPolicy, 'Always');
    assert.equal(c.ports[0].protocol, 'TCP');
    // a limit without a request is the request too; numbers become kube's strings
    assert.deepEqual(c.resources, {
      limits: { cpu: '1', memory: '1Gi' },
      requests: { cpu: '1', memory: '1Gi' },
    });
    assert.deepEqual(c.livenessProbe, {
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(spec.volumes[0], { name: 'v', emptyDir: {} });
    assert.equal(spec.volumes[1].secret.defaultMode, 420);
    assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'Guaranteed' });
  });

  for (const [image, tag] of [
    ['nginx', 'latest'],
    ['nginx:latest', 'latest'],
    ['nginx:1.27', '1.27'],
    ['registry:5000/nginx', 'latest'],
    ['registry:5000/nginx:1', '1'],
    ['nginx@sha256:abc', ''],
  ] as const) {
    it(`image ${image} has tag "${tag}"`, () => assert.equal(imageTag(image), tag));
  }

  it('adds DefaultTolerationSeconds’ tolerations unless the pod has them', () => {
    const plain = created();
    assert.deepEqual((plain.spec as any).tolerations, [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const own = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 5,
    };
    const tolerating = created({ tolerations: [own] });
    assert.deepEqual((tolerating.spec as any).tolerations, [
      own,
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const everything = created({ tolerations: [{ operator: 'Exists' }] });
    assert.deepEqual((everything.spec as any).tolerations, [{ operator: 'Exists' }]);
  });

  it('marks a gated pod SchedulingGated', () => {
    const p = created({ schedulingGates: [{ name: 'example.com/wait' }] });
    assert.equal((p.status as any).conditions[0].reason, 'SchedulingGated');
  });
});

describe('pod QoS class', () => {
  const container = (resources: Record<string, unknown>) => ({ name: 'c', image: 'i', resources });
  for (const [name, containers, want] of [
    ['no resources', [container({})], 'BestEffort'],
    ['zero requests', [container({ requests: { cpu: '0' } })], 'BestEffort'],
    ['requests only', [container({ requests: { cpu: '100m' } })], 'Burstable'],
    [
      'equal limits and requests of cpu and memory',
      [container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } })],
      'Guaranteed',
    ],
    ['limits of cpu only', [container({ limits: { cpu: '1' }, requests: { cpu: '1' } })], 'Burstable'],
    [
      'one container without limits',
      [
        container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }),
        container({}),
      ],
      'Burstable',
    ],
  ] as const) {
    it(`${name}: ${want}`, () => assert.equal(qosClass({ containers }), want));
  }
});

describe('pod validation (kube’s messages)', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no containers', { containers: [] }, ['spec.containers: Required value']],
    [
      'a container without image or name',
      { containers: [{}] },
      ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value'],
    ],
    [
      'the same name in containers and init containers',
      { initContainers: [{ name: 'c', image: 'i' }] },
      ['spec.containers[0].name: Duplicate value: "c"'],
    ],
    [
      'a port out of range and an unknown protocol',
      { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 70000, protocol: 'HTTP' }] }] },
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'an env name with "="',
      { containers: [{ name: 'c', image: 'i', env: [{ name: 'A=B', value: 'x' }] }] },
      [
        'spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
      ],
    ],
    [
      'a mount of a missing volume',
      { containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'v', mountPath: '/v' }] }] },
      ['spec.containers[0].volumeMounts[0].name: Not found: "v"'],
    ],
    [
      'requests above limits',
      {
        containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }],
      },
      [
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      ],
    ],
    [
      'tolerationSeconds without NoExecute, Exists with a value, a bad effect',
      {
        tolerations: [
          { key: 'a', operator: 'Equal', value: 'v', effect: 'NoSchedule', tolerationSeconds: 5 },
          { key: 'b', operator: 'Exists', value: 'v' },
          { key: 'c', operator: 'Exists', effect: 'Never' },
          { operator: 'Equal', value: 'v' },
        ],
      },
      [
        'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        'spec.tolerations[1].operator: Invalid value: {"key":"b","operator":"Exists","value":"v"}: value must be empty when `operator` is \'Exists\'',
        'spec.tolerations[2].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'spec.tolerations[3].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
    [
      'a bad restart policy and node selector',
      { restartPolicy: 'Sometimes', nodeSelector: { 'bad key!': 'x' } },
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        "spec.nodeSelector: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
    [
      'ephemeral containers on create',
      { ephemeralContainers: [{ name: 'e', image: 'i' }] },
      ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(createErrors(spec), want));
  }
});

describe('seccomp profile validation', () => {
  const withProfile = (profile: unknown) => ({
    securityContext: { seccompProfile: profile },
    initContainers: [{ name: 'i', image: 'i', securityContext: { seccompProfile: profile } }],
    containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: profile } }],
  });
  const paths = [
    'spec.securityContext.seccompProfile',
    'spec.initContainers[0].securityContext.seccompProfile',
    'spec.containers[0].securityContext.seccompProfile',
  ];
  const cases: [string, unknown, (path: string) => string[]][] = [
    ['RuntimeDefault', { type: 'RuntimeDefault' }, () => []],
    ['Localhost with a profile', { type: 'Localhost', localhostProfile: 'profiles/audit.json' }, () => []],
    [
      'Localhost without a profile',
      { type: 'Localhost' },
      (p) => [`${p}.localhostProfile: Required value: must be set when seccomp type is Localhost`],
    ],
    [
      'a profile with another type',
      { type: 'Unconfined', localhostProfile: 'x.json' },
      (p) => [
        `${p}.localhostProfile: Invalid value: {"type":"Unconfined","localhostProfile":"x.json"}: can only be set when seccomp type is Localhost`,
      ],
    ],
    ['no type', {}, (p) => [`${p}.type: Required value: type is required when seccompProfile is set`]],
    [
      'an unknown type',
      { type: 'Strict' },
      (p) => [
        `${p}.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
      ],
    ],
    [
      'an absolute path, a path with ..',
      { type: 'Localhost', localhostProfile: '/etc/../x.json' },
      (p) => [
        `${p}.localhostProfile: Invalid value: "/etc/../x.json": must be a relative path`,
        `${p}.localhostProfile: Invalid value: "/etc/../x.json": must not contain '..'`,
      ],
    ],
  ];
  for (const [name, profile, want] of cases) {
    it(`${name}: on the pod, init containers and containers`, () => {
      assert.deepEqual(createErrors(withProfile(profile)), paths.flatMap(want));
    });
  }
  it('ephemeral containers are checked too', () => {
    const p = pod({
      ephemeralContainers: [
        { name: 'e', image: 'i', securityContext: { seccompProfile: { type: 'Localhost' } } },
      ],
    });
    podStrategy.defaults!(p, ctx);
    const errors = podStrategy.validateUpdate!(p, p, ctx).map(formatFieldError);
    assert.ok(
      errors.includes(
        'spec.ephemeralContainers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      ),
      errors.join('\n'),
    );
  });
});

describe('pod updates', () => {
  const base = () => created({ activeDeadlineSeconds: 100 });
  const update = (change: (spec: Record<string, any>) => void): string[] => {
    const old = base();
    const next = structuredClone(old);
    change(next.spec as Record<string, any>);
    return validatePodUpdate(next, old).map(formatFieldError);
  };
  const forbidden = (changed: string) =>
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
    '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
    `\`spec.terminationGracePeriodSeconds\` (allow it to be set to 1 if it was previously negative)\n  changed: ${changed}`;
  const cases: [string, (spec: Record<string, any>) => void, string[]][] = [
    ['an image', (s) => (s.containers[0].image = 'nginx:1.28'), []],
    ['a lower activeDeadlineSeconds', (s) => (s.activeDeadlineSeconds = 50), []],
    [
      'a higher activeDeadlineSeconds',
      (s) => (s.activeDeadlineSeconds = 200),
      ['spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value'],
    ],
    [
      'activeDeadlineSeconds unset',
      (s) => delete s.activeDeadlineSeconds,
      [
        'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
      ],
    ],
    ['an added toleration', (s) => s.tolerations.push({ key: 'k', operator: 'Exists' }), []],
    ['a changed tolerationSeconds', (s) => (s.tolerations[0].tolerationSeconds = 10), []],
    [
      'a removed toleration',
      (s) => s.tolerations.pop(),
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ],
    [
      'an added container',
      (s) => s.containers.push({ name: 'd', image: 'i' }),
      ['spec.containers: Forbidden: pod updates may not add or remove containers'],
    ],
    [
      'a changed port',
      (s) => (s.containers[0].ports = [{ containerPort: 81 }]),
      [forbidden('spec.containers')],
    ],
    ['the node', (s) => (s.nodeName = 'n2'), [forbidden('spec.nodeName')]],
  ];
  for (const [name, change, want] of cases) it(name, () => assert.deepEqual(update(change), want));

  it('scheduling gates may be removed, not added', () => {
    const old = created({ schedulingGates: [{ name: 'a' }] });
    const removed = structuredClone(old);
    (removed.spec as any).schedulingGates = [];
    assert.deepEqual(validatePodUpdate(removed, old), []);
    const added = structuredClone(old);
    (added.spec as any).schedulingGates.push({ name: 'b' });
    assert.deepEqual(validatePodUpdate(added, old).map(formatFieldError), [
      "spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate 'b'",
    ]);
  });
});

describe('pod selectable fields', () => {
  it('has kube’s fields, podIP from podIPs', () => {
    const p = created({ nodeName: 'n1', serviceAccountName: 'sa', hostNetwork: true });
    p.status = { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], nominatedNodeName: 'n2' };
    assert.deepEqual(podDefinition.strategy.selectableFields!(p), {
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'sa',
      'spec.hostNetwork': 'true',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.1',
      'status.nominatedNodeName': 'n2',
    });
  });
});

describe('defaultPod keeps what is set', () => {
  it('an explicit pull policy and grace period stay', () => {
    const p = pod({
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }],
    });
    defaultPod(p);
    assert.equal((p.spec as any).terminationGracePeriodSeconds, 0);
    assert.equal((p.spec as any).containers[0].imagePullPolicy, 'Never');
  });
});
