import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDefinition } from '../registry/index.js';
import { aggregatedDiscovery, apiGroupList, apiResourceList } from '../discovery/index.js';
import { configMaps, cronTabs, leases, namespaces } from '../../test/support/definitions.js';
import { openApiV3Index } from '../openapi/index.js';
import { ApiEnablement, isRemoved, resolveApiEnablement } from './api-enablement.js';
import { FlagError } from './flag-error.js';
import { parseRuntimeConfig } from './runtime-config.js';

const widgets: ResourceDefinition = {
  ...cronTabs,
  group: 'example.io',
  resource: 'widgets',
  kind: 'Widget',
  listKind: 'WidgetList',
  versions: ['v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'v1beta0'],
  lifecycle: {
    v1beta1: { introduced: '1.20' },
    v1beta2: { introduced: '1.25' },
    v1beta0: { introduced: '1.10', removed: '1.30' },
  },
};
const gadgets: ResourceDefinition = {
  ...cronTabs,
  group: 'example.io',
  resource: 'gadgets',
  kind: 'Gadget',
  listKind: 'GadgetList',
  versions: ['v1', 'v1beta1'],
};
const defs = [namespaces, configMaps, leases, widgets, gadgets];

function enablement(...flags: string[]): ApiEnablement {
  return resolveApiEnablement(parseRuntimeConfig(flags), defs);
}

/** "<group>/<resource>@<version>" for everything served */
function served(e: ApiEnablement): string[] {
  return e.served(defs).flatMap((d) => d.versions.map((v) => `${d.group || 'core'}/${d.resource}@${v}`));
}

const defaults = [
  'core/namespaces@v1',
  'core/configmaps@v1',
  'coordination.k8s.io/leases@v1',
  'example.io/widgets@v1',
  'example.io/widgets@v1beta1',
  'example.io/gadgets@v1',
];

function errorOf(...flags: string[]): string {
  try {
    enablement(...flags);
  } catch (e) {
    assert.ok(e instanceof FlagError, String(e));
    return e.message;
  }
  assert.fail(`${flags.join(' ')} was accepted`);
}

describe('API version enablement', () => {
  it('serves stable versions and betas introduced before 1.22; alpha, later betas and removed ones not', () => {
    assert.deepEqual(served(enablement()), defaults);
    assert.equal(isRemoved(widgets, 'v1beta0'), true);
    assert.equal(isRemoved(widgets, 'v1beta1'), false);
  });

  it('api/alpha=true turns every alpha version on; api/beta toggles every beta', () => {
    assert.deepEqual(
      served(enablement('api/alpha=true')),
      [...defaults, 'example.io/widgets@v1alpha1'].sort(byDefs),
    );
    assert.deepEqual(
      served(enablement('api/beta=true')),
      [...defaults, 'example.io/widgets@v1beta2', 'example.io/gadgets@v1beta1'].sort(byDefs),
    );
    assert.deepEqual(
      served(enablement('api/beta=false')),
      defaults.filter((d) => !d.endsWith('v1beta1')),
    );
  });

  it('api/ga=false turns stable versions off; api/all switches everything', () => {
    assert.deepEqual(served(enablement('api/ga=false,api/beta')), [
      'example.io/widgets@v1beta2',
      'example.io/widgets@v1beta1',
      'example.io/gadgets@v1beta1',
    ]);
    assert.equal(served(enablement('api/all=true')).length, 9);
    assert.ok(
      !served(enablement('api/all=true')).includes('example.io/widgets@v1beta0'),
      'removed stays off',
    );
  });

  it('a group-version wins over the level switches, in any order', () => {
    assert.deepEqual(served(enablement('v1=true,api/all=false')), [
      'core/namespaces@v1',
      'core/configmaps@v1',
    ]);
    assert.deepEqual(
      served(enablement('example.io/v1alpha1')),
      [...defaults, 'example.io/widgets@v1alpha1'].sort(byDefs),
    );
    assert.deepEqual(
      served(enablement('coordination.k8s.io/v1=false')),
      defaults.filter((d) => !d.includes('leases')),
    );
  });

  it('a resource wins over its group-version', () => {
    assert.deepEqual(served(enablement('v1=false,v1/configmaps=true')), [
      'core/configmaps@v1',
      ...defaults.slice(2),
    ]);
    assert.deepEqual(
      served(enablement('api/v1/configmaps=false')),
      defaults.filter((d) => d !== 'core/configmaps@v1'),
    );
    assert.deepEqual(
      served(enablement('example.io/v1alpha1=true,example.io/v1alpha1/widgets=false')),
      defaults,
    );
  });

  it('keeps a definition untouched when all its versions are served, copies it otherwise', () => {
    const out = enablement('api/beta=false').served(defs);
    assert.equal(
      out.find((d) => d.resource === 'configmaps'),
      configMaps,
    );
    const w = out.find((d) => d.resource === 'widgets')!;
    assert.notEqual(w, widgets);
    assert.deepEqual(w.versions, ['v1']);
    assert.deepEqual(widgets.versions, ['v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'v1beta0']);
  });

  it('refuses an unknown group, a version or resource the group does not have, and api/all=false alone', () => {
    assert.equal(
      errorOf('batch/v1=false,policy/v1=false'),
      '--runtime-config: unknown api groups batch,policy',
    );
    assert.equal(
      errorOf('coordination.k8s.io/v2=true'),
      '--runtime-config: group version coordination.k8s.io/v2 that has not been registered',
    );
    assert.equal(errorOf('v1/pods=false'), '--runtime-config: v1/pods: v1 has no resource "pods"');
    assert.equal(
      errorOf('api/all=false'),
      '--runtime-config: invalid key with only api/all=false: nothing would be served',
    );
    assert.equal(served(enablement('api/all=false,api/ga=true')).length, 5);
  });
});

describe('disabled versions in discovery and OpenAPI', () => {
  const out = enablement('coordination.k8s.io/v1=false,example.io/v1beta1=false').served(defs);

  it('vanish from /apis, /apis/<group>/<version> and aggregated discovery', () => {
    assert.deepEqual(
      apiGroupList(out).groups.map((g) => [g.name, g.versions.map((v) => v.version)]),
      [['example.io', ['v1']]],
    );
    assert.equal(apiResourceList(out, 'coordination.k8s.io', 'v1'), undefined);
    assert.equal(apiResourceList(out, 'example.io', 'v1beta1'), undefined);
    const aggregated = aggregatedDiscovery(out, 'apis', 'v2');
    assert.deepEqual(
      aggregated.items.map((g) => [g.metadata.name, g.versions.map((v) => v.version)]),
      [['example.io', ['v1']]],
    );
  });

  it('vanish from the OpenAPI v3 index', () => {
    const paths = Object.keys(openApiV3Index(out).paths);
    assert.ok(paths.includes('apis/example.io/v1'), paths.join(' '));
    assert.ok(!paths.includes('apis/example.io/v1beta1'));
    assert.ok(!paths.some((p) => p.startsWith('apis/coordination.k8s.io')));
    assert.ok(Object.keys(openApiV3Index(defs).paths).includes('apis/coordination.k8s.io/v1'));
  });
});

/** the order served() lists things in: definitions in order, versions in definition order */
function byDefs(a: string, b: string): number {
  const rank = (s: string) => {
    const [gr, v] = s.split('@');
    const def = defs.findIndex((d) => `${d.group || 'core'}/${d.resource}` === gr);
    return def * 100 + defs[def].versions.indexOf(v);
  };
  return rank(a) - rank(b);
}
