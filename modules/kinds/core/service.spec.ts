import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, systemContext, type FieldError, type KubeObject } from '../../api/index.js';
import { serviceDefinition, serviceStatusStrategy, serviceStrategy } from './service.js';

const ctx = systemContext();
const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);

const svc = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  metadata: { name: 's', namespace: 'n' },
  spec: structuredClone(spec),
  ...(status ? { status: structuredClone(status) } : {}),
});

/** what a create does to the object before validation: defaults, then prepareForCreate */
function created(spec: Record<string, unknown>): KubeObject {
  const obj = svc(spec);
  serviceStrategy.defaults!(obj, ctx);
  serviceStrategy.prepareForCreate!(obj, ctx);
  return obj;
}

const createErrors = (spec: Record<string, unknown>): string[] =>
  show(serviceStrategy.validate!(created(spec), ctx));

function updated(oldSpec: Record<string, unknown>, spec: Record<string, unknown>): [KubeObject, KubeObject] {
  const old = created(oldSpec);
  const obj = svc(spec);
  serviceStrategy.defaults!(obj, ctx);
  serviceStrategy.prepareForUpdate!(obj, old, ctx);
  return [obj, old];
}

const updateErrors = (oldSpec: Record<string, unknown>, spec: Record<string, unknown>): string[] => {
  const [obj, old] = updated(oldSpec, spec);
  return show([...serviceStrategy.validate!(obj, ctx), ...serviceStrategy.validateUpdate!(obj, old, ctx)]);
};

const web = { ports: [{ port: 80 }], selector: { app: 'web' } };

describe('Service defaults', () => {
  it('a bare ClusterIP service: type, affinity, protocol, targetPort, internal policy; no clusterIP allocated', () => {
    assert.deepEqual(created(web).spec, {
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
    assert.deepEqual(created(web).status, { loadBalancer: {} });
  });
  it('a given clusterIP is mirrored into clusterIPs and gets its family', () => {
    const spec = created({ ...web, clusterIP: '10.96.0.10' }).spec as Record<string, unknown>;
    assert.deepEqual(spec.clusterIPs, ['10.96.0.10']);
    assert.equal(spec.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
    const v6 = created({ ...web, clusterIP: 'fd00::10' }).spec as Record<string, unknown>;
    assert.deepEqual(v6.ipFamilies, ['IPv6']);
  });
  it('headless: None is kept; without selector the policy is PreferDualStack', () => {
    const withSelector = created({ ...web, clusterIP: 'None' }).spec as Record<string, unknown>;
    assert.deepEqual([withSelector.clusterIPs, withSelector.ipFamilyPolicy], [['None'], 'SingleStack']);
    const bare = created({ clusterIP: 'None' }).spec as Record<string, unknown>;
    assert.deepEqual([bare.ipFamilyPolicy, bare.ipFamilies], ['PreferDualStack', ['IPv4']]);
  });
  it('NodePort and LoadBalancer get externalTrafficPolicy Cluster; LoadBalancer allocates node ports', () => {
    assert.equal(
      (created({ ...web, type: 'NodePort' }).spec as Record<string, unknown>).externalTrafficPolicy,
      'Cluster',
    );
    const lb = created({ ...web, type: 'LoadBalancer' }).spec as Record<string, unknown>;
    assert.deepEqual([lb.externalTrafficPolicy, lb.allocateLoadBalancerNodePorts], ['Cluster', true]);
  });
  it('ExternalName gets no clusterIP and no internal traffic policy', () => {
    assert.deepEqual(created({ type: 'ExternalName', externalName: 'db.example.com' }).spec, {
      type: 'ExternalName',
      externalName: 'db.example.com',
      sessionAffinity: 'None',
    });
  });
  it('ClientIP affinity gets the default timeout; None drops the config', () => {
    const sticky = created({ ...web, sessionAffinity: 'ClientIP' }).spec as Record<string, unknown>;
    assert.deepEqual(sticky.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    const none = created({ ...web, sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }).spec;
    assert.equal((none as Record<string, unknown>).sessionAffinityConfig, undefined);
  });
  it('a named targetPort is kept, an empty one becomes the port', () => {
    const spec = created({
      ports: [
        { port: 80, targetPort: 'http', name: 'a' },
        { port: 81, targetPort: '', name: 'b' },
      ],
    }).spec as { ports: { targetPort: unknown }[] };
    assert.deepEqual(
      spec.ports.map((p) => p.targetPort),
      ['http', 81],
    );
  });
});

describe('Service validation (create)', () => {
  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'selector service', spec: web, want: [] },
    { name: 'with clusterIP', spec: { ...web, clusterIP: '10.0.0.1' }, want: [] },
    { name: 'headless without ports', spec: { clusterIP: 'None' }, want: [] },
    {
      name: 'external name with trailing dot',
      spec: { type: 'ExternalName', externalName: 'db.example.com.' },
      want: [],
    },
    { name: 'ports required', spec: { selector: { a: 'b' } }, want: ['spec.ports: Required value'] },
    {
      name: 'unknown type',
      spec: { ...web, type: 'Magic' },
      want: [
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    },
    {
      name: 'port range',
      spec: { ports: [{ port: 0 }] },
      want: [
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    },
    {
      name: 'names required with several ports',
      spec: { ports: [{ port: 80 }, { port: 81, name: 'b' }] },
      want: ['spec.ports[0].name: Required value'],
    },
    {
      name: 'duplicate names',
      spec: {
        ports: [
          { port: 80, name: 'a' },
          { port: 81, name: 'a' },
        ],
      },
      want: ['spec.ports[1].name: Duplicate value: "a"'],
    },
    {
      name: 'name must be a DNS label',
      spec: { ports: [{ port: 80, name: 'Web' }] },
      want: [
        "spec.ports[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'duplicate port and protocol',
      spec: {
        ports: [
          { port: 80, name: 'a' },
          { port: 80, name: 'b' },
        ],
      },
      want: [
        'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      ],
    },
    {
      name: 'same port, other protocol',
      spec: {
        ports: [
          { port: 53, name: 'a' },
          { port: 53, name: 'b', protocol: 'UDP' },
        ],
      },
      want: [],
    },
    {
      name: 'protocol',
      spec: { ports: [{ port: 80, protocol: 'ICMP' }] },
      want: ['spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    },
    {
      name: 'targetPort name',
      spec: { ports: [{ port: 80, targetPort: 'no--way-too-long-name' }] },
      want: [
        'spec.ports[0].targetPort: Invalid value: "no--way-too-long-name": must be no more than 15 characters',
        'spec.ports[0].targetPort: Invalid value: "no--way-too-long-name": must not contain consecutive hyphens',
      ],
    },
    {
      name: 'targetPort name needs a letter',
      spec: { ports: [{ port: 80, targetPort: '8080x'.slice(0, 4) }] },
      want: ['spec.ports[0].targetPort: Invalid value: "8080": must contain at least one letter (a-z)'],
    },
    {
      name: 'externalName required',
      spec: { type: 'ExternalName' },
      want: ['spec.externalName: Required value'],
    },
    {
      name: 'externalName must be a subdomain',
      spec: { type: 'ExternalName', externalName: 'Not_A_Name' },
      want: [
        "spec.externalName: Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    },
    {
      name: 'ExternalName with a clusterIP',
      spec: { type: 'ExternalName', externalName: 'a.b', clusterIP: '10.0.0.1' },
      want: ['spec.clusterIPs: Forbidden: may not be set for ExternalName services'],
    },
    {
      name: 'bad clusterIP',
      spec: { ...web, clusterIP: '10.0.0.300' },
      want: [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    },
    {
      name: 'clusterIPs must start with clusterIP',
      spec: { ...web, clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'] },
      want: ['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`'],
    },
    {
      name: 'headless NodePort',
      spec: { ...web, type: 'NodePort', clusterIP: 'None' },
      want: ['spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services'],
    },
    {
      name: 'nodePort on ClusterIP',
      spec: { ports: [{ port: 80, nodePort: 30080 }] },
      want: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    },
    {
      name: 'nodePort on NodePort',
      spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
      want: [],
    },
    {
      name: 'externalTrafficPolicy on ClusterIP',
      spec: { ...web, externalTrafficPolicy: 'Local' },
      want: [
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      ],
    },
    {
      name: 'Local LoadBalancer needs a health check port',
      spec: { ...web, type: 'LoadBalancer', externalTrafficPolicy: 'Local' },
      want: ['spec.healthCheckNodePort: Required value'],
    },
    {
      name: 'session affinity',
      spec: { ...web, sessionAffinity: 'Sticky' },
      want: ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"'],
    },
    {
      name: 'affinity timeout',
      spec: {
        ...web,
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } },
      },
      want: [
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
      ],
    },
    {
      name: 'selector labels',
      spec: { ports: [{ port: 80 }], selector: { app: 'no spaces' } },
      want: [
        "spec.selector: Invalid value: \"no spaces\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    },
    {
      name: 'loopback external IP',
      spec: { ...web, externalIPs: ['127.0.0.1'] },
      want: [
        'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    },
    {
      name: 'source ranges only for LoadBalancer',
      spec: { ...web, loadBalancerSourceRanges: ['10.0.0.0/33'] },
      want: [
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
        'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    },
    {
      name: 'loadBalancerClass only for LoadBalancer',
      spec: { ...web, loadBalancerClass: 'example.com/lb' },
      want: ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"],
    },
    {
      name: 'traffic distribution',
      spec: { ...web, trafficDistribution: 'Anywhere' },
      want: ['spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"'],
    },
    {
      name: 'ip family',
      spec: { ...web, clusterIP: '10.0.0.1', ipFamilies: ['IPv6'] },
      want: [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
      ],
    },
  ];
  for (const { name, spec, want } of cases) it(name, () => assert.deepEqual(createErrors(spec), want));
});

describe('Service validation (update)', () => {
  it('a replace that omits the clusterIP keeps it', () => {
    const [obj] = updated({ ...web, clusterIP: '10.0.0.1' }, web);
    assert.deepEqual((obj.spec as Record<string, unknown>).clusterIPs, ['10.0.0.1']);
    assert.deepEqual(updateErrors({ ...web, clusterIP: '10.0.0.1' }, web), []);
  });
  it('clusterIP is immutable', () => {
    assert.deepEqual(updateErrors({ ...web, clusterIP: '10.0.0.1' }, { ...web, clusterIP: '10.0.0.2' }), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.2"}: may not change once set',
    ]);
  });
  it('ipFamilies are immutable once set', () => {
    assert.deepEqual(
      updateErrors(
        { ...web, clusterIP: '10.0.0.1' },
        { ...web, clusterIP: '10.0.0.1', ipFamilies: ['IPv6'] },
      ),
      [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
        'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6"}: may not change once set',
      ],
    );
  });
  it('field selectors: spec.clusterIP and spec.type', () => {
    assert.deepEqual(serviceStrategy.selectableFields!(created({ ...web, clusterIP: 'None' })), {
      'spec.clusterIP': 'None',
      'spec.type': 'ClusterIP',
    });
  });
  it('a service without clusterIP may get one later (no allocator ran)', () => {
    assert.deepEqual(updateErrors(web, { ...web, clusterIP: '10.0.0.2' }), []);
  });
  it('to ExternalName: the clusterIP and families go', () => {
    const [obj] = updated(
      { ...web, clusterIP: '10.0.0.1' },
      {
        ...web,
        type: 'ExternalName',
        externalName: 'db.example.com',
        clusterIP: '10.0.0.1',
        clusterIPs: ['10.0.0.1'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      },
    );
    const spec = obj.spec as Record<string, unknown>;
    assert.deepEqual(
      [spec.clusterIP, spec.clusterIPs, spec.ipFamilies, spec.ipFamilyPolicy],
      [undefined, undefined, undefined, undefined],
    );
    assert.deepEqual(
      show(serviceStrategy.validateUpdate!(obj, created({ ...web, clusterIP: '10.0.0.1' }), ctx)),
      [],
    );
  });
  it('NodePort to ClusterIP drops the node ports and the external policy', () => {
    const [obj] = updated(
      { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
      { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30080 }], externalTrafficPolicy: 'Cluster' },
    );
    const spec = obj.spec as { ports: Record<string, unknown>[]; externalTrafficPolicy?: string };
    assert.deepEqual([spec.ports[0].nodePort, spec.externalTrafficPolicy], [undefined, undefined]);
  });
  it('status is kept from the stored object; a non-LoadBalancer loses its load balancer', () => {
    const lb = { ...web, type: 'LoadBalancer' };
    const old = created(lb);
    old.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } };
    const obj = svc(lb, { loadBalancer: {} });
    serviceStrategy.defaults!(obj, ctx);
    serviceStrategy.prepareForUpdate!(obj, old, ctx);
    assert.deepEqual(obj.status, old.status);
    const toClusterIP = svc(web);
    serviceStrategy.defaults!(toClusterIP, ctx);
    serviceStrategy.prepareForUpdate!(toClusterIP, old, ctx);
    assert.deepEqual(toClusterIP.status, { loadBalancer: {} });
  });
});

describe('services/status', () => {
  it('keeps the spec and checks the load balancer ingress', () => {
    const old = created({ ...web, type: 'LoadBalancer' });
    const obj = svc(
      { ...web, type: 'ClusterIP' },
      { loadBalancer: { ingress: [{ ip: '192.0.2.1' }, { hostname: '1.2.3.4' }] } },
    );
    serviceStatusStrategy.defaults!(obj, ctx);
    serviceStatusStrategy.prepareForUpdate!(obj, old, ctx);
    serviceStatusStrategy.defaults!(obj, ctx);
    assert.deepEqual(obj.spec, old.spec);
    assert.deepEqual(show(serviceStatusStrategy.validateUpdate!(obj, old, ctx)), [
      'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
    ]);
    assert.equal(
      (obj.status as { loadBalancer: { ingress: { ipMode?: string }[] } }).loadBalancer.ingress[0].ipMode,
      'VIP',
    );
  });
  it('refuses ingress on a service that is not a LoadBalancer', () => {
    const old = created(web);
    const obj = svc(web, { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } });
    serviceStatusStrategy.prepareForUpdate!(obj, old, ctx);
    assert.deepEqual(show(serviceStatusStrategy.validateUpdate!(obj, old, ctx)), [
      "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ]);
  });
});

describe('Service columns', () => {
  const row = (obj: KubeObject): unknown[] =>
    (serviceDefinition.printerColumns ?? []).map((c) => c.cell?.(obj, Date.parse('2024-01-01T00:01:00Z')));
  it('ClusterIP, NodePort, LoadBalancer, ExternalName', () => {
    const base = { metadata: { name: 's', namespace: 'n', creationTimestamp: '2024-01-01T00:00:00Z' } };
    assert.deepEqual(
      row({ ...base, ...created({ ...web, clusterIP: '10.0.0.1' }), metadata: base.metadata }),
      [undefined, 'ClusterIP', '10.0.0.1', '<none>', '80/TCP', '60s', 'app=web'],
    );
    const nodePort = created({
      type: 'NodePort',
      ports: [
        { port: 80, nodePort: 30080 },
        { port: 53, protocol: 'UDP', name: 'dns' },
      ],
    });
    assert.deepEqual(row({ ...nodePort, metadata: base.metadata }).slice(1, 5), [
      'NodePort',
      '<none>',
      '<none>',
      '80:30080/TCP,53/UDP',
    ]);
    const lb = created({ ...web, type: 'LoadBalancer' });
    assert.equal(row({ ...lb, metadata: base.metadata })[3], '<pending>');
    lb.status = { loadBalancer: { ingress: [{ hostname: 'b.example.com' }, { ip: '192.0.2.1' }] } };
    assert.equal(row({ ...lb, metadata: base.metadata })[3], '192.0.2.1,b.example.com');
    const ext = created({ type: 'ExternalName', externalName: 'db.example.com' });
    assert.deepEqual(row({ ...ext, metadata: base.metadata }).slice(1, 5), [
      'ExternalName',
      '<none>',
      'db.example.com',
      '<none>',
    ]);
  });
});
