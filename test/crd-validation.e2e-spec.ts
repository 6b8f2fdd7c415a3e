/**
 * Our own CRD with what widely used projects' CRDs rely on (Gateway API's list-map keys and CEL with oldSelf,
 * int-or-string ports, embedded resources, preserve-unknown-fields, messageExpression, fieldPath), driven with
 * the real kubectl: the CRD installs, valid objects pass, invalid ones are refused with kube's messages on
 * create and update, and CRDs whose rules do not compile or cost too much are refused.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { kubectl } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

const GROUP = 'routes.pgkube.io';

function routeCrd(extraRules: object[] = []): object {
  const name = { type: 'string', maxLength: 63 };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `trails.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'trails', singular: 'trail', kind: 'Trail' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['className'],
                  properties: {
                    className: {
                      ...name,
                      'x-kubernetes-validations': [
                        { rule: 'self == oldSelf', message: 'className is immutable' },
                      ],
                    },
                    hostnames: {
                      type: 'array',
                      maxItems: 4,
                      'x-kubernetes-list-type': 'set',
                      items: { type: 'string', maxLength: 253, pattern: '^[a-z0-9.-]+$' },
                    },
                    rules: {
                      type: 'array',
                      maxItems: 8,
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name,
                          port: { 'x-kubernetes-int-or-string': true },
                          weight: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
                        },
                      },
                    },
                    template: {
                      type: 'object',
                      'x-kubernetes-embedded-resource': true,
                      'x-kubernetes-preserve-unknown-fields': true,
                    },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    // no maxItems, no maxLength: its size is bounded only by the request's
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                  'x-kubernetes-validations': [
                    {
                      rule: '!has(self.rules) || self.rules.all(r, r.weight <= 50 || r.name.startsWith("heavy-"))',
                      messageExpression:
                        "'rules over weight 50 need a heavy- name, as ' + self.rules[0].name + ' has not'",
                    },
                    {
                      rule: '!has(self.hostnames) || self.hostnames.all(h, !h.startsWith("-"))',
                      message: 'hostnames may not start with a dash',
                      fieldPath: '.hostnames',
                      reason: 'FieldValueForbidden',
                    },
                    ...extraRules,
                  ],
                },
              },
            },
          },
        },
      ],
    },
  };
}

const trail = (name: string, spec: object) => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Trail',
  metadata: { name, namespace: 'default' },
  spec,
});

describe('CRD validation as real projects use it', () => {
  const s = useServer();
  let n = 0;
  const apply = async (obj: object, verb = 'apply') => {
    const file = path.join(s.dataDir, `obj-${n++}.yaml`);
    await writeFile(file, stringify(obj));
    return kubectl([verb, '-f', file], { kubeconfig: s.kubeconfig, timeoutMs: 60_000 });
  };
  const ok = async (obj: object, verb = 'apply') => {
    const r = await apply(obj, verb);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const refused = async (obj: object, ...messages: RegExp[]) => {
    const r = await apply(obj);
    assert.notEqual(r.code, 0, r.stdout);
    for (const m of messages) assert.match(r.stderr, m);
    return r.stderr;
  };

  it('installs, and a valid object passes with defaults, int-or-string and kept unknown fields', async () => {
    await ok(routeCrd());
    const wait = await kubectl(
      ['wait', '--for=condition=Established', `crd/trails.${GROUP}`, '--timeout=10s'],
      {
        kubeconfig: s.kubeconfig,
      },
    );
    assert.equal(wait.code, 0, wait.stderr);
    await ok(
      trail('t1', {
        className: 'gold',
        hostnames: ['a.example.com'],
        rules: [
          { name: 'web', port: 'http' },
          { name: 'api', port: 8080, weight: 20 },
        ],
        template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'v' } },
        extra: { anything: { goes: [1, 2] } },
      }),
    );
    const got = JSON.parse(
      (await kubectl(['get', 'trail', 't1', '-n', 'default', '-o', 'json'], { kubeconfig: s.kubeconfig }))
        .stdout,
    );
    assert.equal(got.spec.rules[0].weight, 1, 'defaulted in a list item');
    assert.equal(got.spec.rules[1].port, 8080);
    assert.deepEqual(got.spec.extra, { anything: { goes: [1, 2] } });
    assert.deepEqual(got.spec.template.data, { k: 'v' });
  });

  it("refuses schema errors with kube's messages", async () => {
    await refused(
      trail('t2', {
        className: 'gold',
        hostnames: ['a.example.com', 'a.example.com', 'UPPER'],
        rules: [{ name: 'web' }, { name: 'web', weight: 500 }],
        template: { metadata: { name: 'x' } },
      }),
      /spec\.hostnames\[1\]: Duplicate value: "a\.example\.com"/,
      /spec\.hostnames\[2\]: Invalid value: "UPPER": spec\.hostnames\[2\] in body should match '\^\[a-z0-9\.-\]\+\$'/,
      /spec\.rules\[1\]\.weight: Invalid value: 500: spec\.rules\[1\]\.weight in body should be less than or equal to 100/,
      /spec\.rules\[1\]: Duplicate value: map\[string\]interface \{\}\{"name":"web"\}/,
      /spec\.template\.apiVersion: Required value: must not be empty/,
      /spec\.template\.kind: Required value: must not be empty/,
    );
  });

  it('refuses CEL failures with message, messageExpression, fieldPath and reason', async () => {
    const stderr = await refused(
      trail('t3', {
        className: 'gold',
        hostnames: ['-bad.example.com'],
        rules: [{ name: 'web', weight: 60 }],
      }),
      /spec: Invalid value: "object": rules over weight 50 need a heavy- name, as web has not/,
      /spec\.hostnames: Forbidden: hostnames may not start with a dash/,
    );
    assert.doesNotMatch(stderr, /some validation rules were not checked/);
  });

  it('transition rules on update: className is immutable; oldSelf rules do not run on create', async () => {
    await ok(trail('t4', { className: 'silver' }));
    await refused(
      trail('t4', { className: 'bronze' }),
      /spec\.className: Invalid value: "string": className is immutable/,
    );
    await ok(trail('t4', { className: 'silver', hostnames: ['b.example.com'] }));
  });

  it('a CRD whose rule does not compile, or costs too much, is refused', async () => {
    const broken = routeCrd([{ rule: 'self.nope > 1' }]);
    const r1 = await apply(broken);
    assert.notEqual(r1.code, 0, `r1: ${r1.stdout}`);
    assert.match(
      r1.stderr,
      /x-kubernetes-validations\[2\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:5: undefined field 'nope'/,
    );
    const costly = routeCrd([
      { rule: '!has(self.tags) || self.tags.all(a, self.tags.all(b, a != b || a == b))' },
    ]);
    const r2 = await apply(costly);
    assert.notEqual(r2.code, 0, `r2: ${r2.stdout}`);
    assert.match(r2.stderr, /estimated rule cost exceeds budget by factor of|exceeds budget/);
  });

  it('server-side apply merges list-map and set entries per manager; an unmarked list is atomic', async () => {
    const applyAs = async (manager: string, spec: object, force = false) => {
      const file = path.join(s.dataDir, `ssa-${n++}.yaml`);
      await writeFile(file, stringify(trail('t5', spec)));
      const args = ['apply', '--server-side', `--field-manager=${manager}`, '-f', file];
      return kubectl(force ? [...args, '--force-conflicts'] : args, {
        kubeconfig: s.kubeconfig,
        timeoutMs: 60_000,
      });
    };
    let r = await applyAs('alice', {
      className: 'gold',
      rules: [{ name: 'a' }],
      hostnames: ['a.example.com'],
      tags: ['first'],
    });
    assert.equal(r.code, 0, r.stderr);
    r = await applyAs('bob', { className: 'gold', rules: [{ name: 'b' }], hostnames: ['b.example.com'] });
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse(
      (await kubectl(['get', 'trail', 't5', '-n', 'default', '-o', 'json'], { kubeconfig: s.kubeconfig }))
        .stdout,
    );
    assert.deepEqual(
      got.spec.rules.map((x: any) => x.name),
      ['a', 'b'],
    );
    assert.deepEqual(got.spec.hostnames, ['a.example.com', 'b.example.com']);
    r = await applyAs('bob', { className: 'gold', rules: [{ name: 'b' }], tags: ['second'] });
    assert.notEqual(r.code, 0, 'bob may not take over the atomic list alice owns');
    assert.match(r.stderr, /conflict/i);
    assert.match(r.stderr, /\.spec\.tags/);
  });
});
