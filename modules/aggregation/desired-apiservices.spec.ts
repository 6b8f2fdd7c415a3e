import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../registry/index.js';
import { builtinDefinitions } from '../kinds/index.js';
import { desiredApiServices } from './desired-apiservices.js';
import { builtinPriority } from './priorities.js';

const kind = (group: string, versions: string[], extra: Partial<ResourceDefinition> = {}) =>
  ({ group, versions, resource: `r${group}${versions.join('')}`, ...extra }) as ResourceDefinition;

/** name → [automanaged label, groupPriorityMinimum, versionPriority] */
function summary(defs: ResourceDefinition[]): Record<string, [string, number, number]> {
  const out: Record<string, [string, number, number]> = {};
  for (const [name, obj] of desiredApiServices(defs)) {
    assert.equal(obj.spec!.service, undefined, `${name} is local`);
    assert.equal(name, `${obj.spec!.version}.${obj.spec!.group}`);
    out[name] = [
      obj.metadata.labels!['kube-aggregator.kubernetes.io/automanaged'],
      obj.spec!.groupPriorityMinimum!,
      obj.spec!.versionPriority!,
    ];
  }
  return out;
}

describe('the local APIServices of the served group/versions', () => {
  it("built-in kinds get kube-apiserver's priorities and the onstart label", () => {
    assert.deepEqual(summary(builtinDefinitions), {
      'v1.': ['onstart', 18000, 1],
      'v1.coordination.k8s.io': ['onstart', 16500, 15],
      'v1.discovery.k8s.io': ['onstart', 16200, 15],
      'v1.rbac.authorization.k8s.io': ['onstart', 17000, 15],
      'v1.authentication.k8s.io': ['onstart', 17700, 15],
      'v1.authorization.k8s.io': ['onstart', 17600, 15],
      'v1.events.k8s.io': ['onstart', 17750, 15],
    });
  });

  it('CRD group/versions get 1000/100 and the continuous label; a built-in kind in the same group/version wins', () => {
    const crd = { declaredServing: true };
    assert.deepEqual(
      summary([
        kind('stable.example.com', ['v1', 'v1beta1'], crd),
        kind('stable.example.com', ['v1'], { ...crd, resource: 'others' }),
        kind('events.k8s.io', ['v1'], crd),
        kind('events.k8s.io', ['v1']),
      ]),
      {
        'v1.stable.example.com': ['true', 1000, 100],
        'v1beta1.stable.example.com': ['true', 1000, 100],
        'v1.events.k8s.io': ['onstart', 17750, 15],
      },
    );
  });

  it('a built-in group/version kube has no priorities for gets none (the aggregator serves its own group)', () => {
    assert.deepEqual(summary([kind('apiregistration.k8s.io', ['v1']), kind('apps', ['v9'])]), {});
    assert.equal(builtinPriority('apps', 'constructor'), undefined);
    assert.equal(builtinPriority('toString', 'v1'), undefined);
    assert.deepEqual(builtinPriority('autoscaling', 'v2'), {
      groupPriorityMinimum: 17500,
      versionPriority: 30,
    });
  });
});
