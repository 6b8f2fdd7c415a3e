import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMaps, cronTabs, namespaces } from '../../test/support/definitions.js';
import { ApiEnablement, parseRuntimeConfig, resolveApiEnablement } from '../versioning/index.js';
import type { ResourceDefinition } from './definition.js';
import { Registry, type RegistryEvent } from './registry.js';

/** cronTabs with a v1beta1 that has its own schema, columns and subresources */
const perVersionCronTabs: ResourceDefinition = {
  ...cronTabs,
  perVersion: {
    v1beta1: {
      schema: { type: 'object', properties: { spec: { type: 'object' } } },
      printerColumns: [{ name: 'Spec', type: 'string', description: '', priority: 0, jsonPath: '.spec' }],
      subresources: ['status'],
    },
  },
};

function recording(registry: Registry): RegistryEvent[] {
  const events: RegistryEvent[] = [];
  registry.subscribe((e) => events.push(e));
  return events;
}

describe('Registry', () => {
  it('starts empty', () => {
    const r = new Registry();
    assert.deepEqual(r.definitions, []);
    assert.deepEqual(r.stored, []);
    assert.equal(r.find('', 'v1', 'configmaps'), undefined);
    assert.equal(r.hasGroupVersion('', 'v1'), false);
  });

  it('serves a virtual kind but never counts it as stored (nothing of it is in storage)', () => {
    const r = new Registry();
    const reviews: ResourceDefinition = {
      ...cronTabs,
      resource: 'reviews',
      kind: 'Review',
      storage: 'virtual',
    };
    r.register(reviews);
    r.register(configMaps);
    assert.equal(r.find(reviews.group, 'v1', 'reviews'), reviews);
    assert.deepEqual(r.definitions, [reviews, configMaps]);
    assert.deepEqual(r.stored, [configMaps]);
    assert.equal(r.storedKind(reviews.group, 'reviews'), undefined);
    assert.deepEqual(r.namespaced(), [configMaps]);
  });

  it('serves a registered kind at each of its versions', () => {
    const r = new Registry();
    r.register(cronTabs);
    assert.equal(r.find('stable.example.com', 'v1', 'crontabs'), cronTabs);
    assert.equal(r.find('stable.example.com', 'v1beta1', 'crontabs'), cronTabs);
    assert.equal(r.find('stable.example.com', 'v2', 'crontabs'), undefined);
    assert.ok(r.hasGroupVersion('stable.example.com', 'v1beta1'));
    assert.equal(r.storedKind('stable.example.com', 'crontabs'), cronTabs);
    assert.deepEqual(r.namespaced(), [cronTabs]);
  });

  it('replaces the definition with the same group and resource, in its place', () => {
    const r = new Registry();
    r.register(namespaces);
    r.register(cronTabs);
    r.register(configMaps);
    const v1Only = { ...cronTabs, versions: ['v1'] };
    r.register(v1Only);
    assert.deepEqual(r.definitions, [namespaces, v1Only, configMaps]);
    assert.equal(r.find('stable.example.com', 'v1', 'crontabs'), v1Only);
    assert.equal(r.find('stable.example.com', 'v1beta1', 'crontabs'), undefined);
    assert.equal(r.hasGroupVersion('stable.example.com', 'v1beta1'), false);
  });

  it('unregisters a kind everywhere; unknown ones are ignored', () => {
    const r = new Registry();
    r.register(namespaces);
    r.register(cronTabs);
    const events = recording(r);
    r.unregister('stable.example.com', 'crontabs');
    r.unregister('stable.example.com', 'crontabs');
    r.unregister('nowhere.io', 'things');
    assert.deepEqual(r.definitions, [namespaces]);
    assert.deepEqual(r.stored, [namespaces]);
    assert.equal(r.find('stable.example.com', 'v1', 'crontabs'), undefined);
    assert.equal(r.storedKind('stable.example.com', 'crontabs'), undefined);
    assert.equal(r.hasGroupVersion('stable.example.com', 'v1'), false);
    assert.deepEqual(r.namespaced(), []);
    assert.deepEqual(events, [{ type: 'removed', definition: cronTabs }]);
  });

  it('tells subscribers of each change, after the change is visible, until they unsubscribe', () => {
    const r = new Registry();
    const seen: string[] = [];
    const stop = r.subscribe((e) => {
      const found = r.find(e.definition.group, 'v1', e.definition.resource);
      seen.push(`${e.type} ${e.definition.resource} ${found ? 'served' : 'gone'}`);
    });
    r.register(cronTabs);
    r.register({ ...cronTabs });
    r.unregister('stable.example.com', 'crontabs');
    stop();
    r.register(cronTabs);
    assert.deepEqual(seen, ['added crontabs served', 'modified crontabs served', 'removed crontabs gone']);
  });

  it('calls every subscriber even when one throws, then throws', () => {
    const r = new Registry();
    const events = recording(r);
    r.subscribe(() => {
      throw new Error('listener failed');
    });
    const later = recording(r);
    assert.throws(() => r.register(cronTabs), /listener failed/);
    assert.equal(events.length, 1);
    assert.equal(later.length, 1);
    assert.equal(r.find('stable.example.com', 'v1', 'crontabs'), cronTabs);
  });

  it('hands out a new definitions array on each change, the same one between changes', () => {
    const r = new Registry();
    r.register(cronTabs);
    const before = r.definitions;
    assert.equal(r.definitions, before);
    assert.equal(r.stored, r.stored);
    r.register(configMaps);
    assert.notEqual(r.definitions, before);
    assert.deepEqual(before, [cronTabs], 'an array handed out is never changed');
  });
});

describe('per-version views', () => {
  it("find() returns the version's schema, printer columns and subresources, other versions the definition's", () => {
    const r = new Registry();
    r.register(perVersionCronTabs);
    const beta = r.find('stable.example.com', 'v1beta1', 'crontabs')!;
    const own = perVersionCronTabs.perVersion!.v1beta1;
    assert.equal(beta.schema, own.schema);
    assert.equal(beta.printerColumns, own.printerColumns);
    assert.deepEqual(beta.subresources, ['status']);
    assert.equal(beta.kind, 'CronTab');
    assert.equal(beta.strategy, cronTabs.strategy);
    assert.equal(r.find('stable.example.com', 'v1', 'crontabs'), perVersionCronTabs);
  });

  it('find() hands out the same view every time, and a new one once the definition is replaced', () => {
    const r = new Registry();
    r.register(perVersionCronTabs);
    const first = r.find('stable.example.com', 'v1beta1', 'crontabs');
    r.register(configMaps);
    assert.equal(r.find('stable.example.com', 'v1beta1', 'crontabs'), first, 'kept across other changes');
    const replaced: ResourceDefinition = {
      ...perVersionCronTabs,
      perVersion: { v1beta1: { subresources: [] } },
    };
    r.register(replaced);
    const second = r.find('stable.example.com', 'v1beta1', 'crontabs')!;
    assert.notEqual(second, first);
    assert.deepEqual(second.subresources, []);
    assert.equal(second.schema, cronTabs.schema, 'no schema of its own: the definition’s');
    assert.equal(r.find('stable.example.com', 'v1beta1', 'crontabs'), second);
  });
});

describe('version enablement of registered kinds', () => {
  const gadgets: ResourceDefinition = {
    ...cronTabs,
    group: 'example.io',
    resource: 'gadgets',
    kind: 'Gadget',
    listKind: 'GadgetList',
    versions: ['v1', 'v1beta1', 'v1alpha1'],
  };

  it('applies to a kind registered at run time: a disabled version is not served, the kind is still stored', () => {
    const r = new Registry(new ApiEnablement());
    r.register(namespaces);
    r.register(gadgets);
    assert.ok(r.find('example.io', 'v1', 'gadgets'));
    assert.equal(r.find('example.io', 'v1beta1', 'gadgets'), undefined, 'beta: off by default');
    assert.equal(r.find('example.io', 'v1alpha1', 'gadgets'), undefined, 'alpha: off by default');
    assert.deepEqual(r.definitions.find((d) => d.resource === 'gadgets')?.versions, ['v1']);
    assert.equal(r.storedKind('example.io', 'gadgets'), gadgets, 'stored with every version');
  });

  it('follows --runtime-config, down to a kind with no version left (stored, not served)', () => {
    const flags = parseRuntimeConfig(['example.io/v1alpha1=true,example.io/v1=false']);
    const r = new Registry(resolveApiEnablement(flags, [gadgets]));
    const events: RegistryEvent[] = [];
    r.subscribe((e) => events.push(e));
    r.register(gadgets);
    assert.deepEqual(
      ['v1', 'v1beta1', 'v1alpha1'].filter((v) => r.find('example.io', v, 'gadgets')),
      ['v1alpha1'],
    );
    r.register({ ...gadgets, versions: ['v1'] });
    assert.deepEqual(r.definitions, []);
    assert.equal(r.hasGroupVersion('example.io', 'v1'), false);
    assert.equal(r.storedKind('example.io', 'gadgets')?.versions.length, 1);
    assert.deepEqual(
      events.map((e) => e.type),
      ['added', 'modified'],
    );
  });

  it('views of an enabled version carry that version’s data', () => {
    const r = new Registry(new ApiEnablement(parseRuntimeConfig(['api/beta=true']).entries));
    r.register(perVersionCronTabs);
    const beta = r.find('stable.example.com', 'v1beta1', 'crontabs')!;
    assert.deepEqual(beta.subresources, ['status']);
    assert.equal(beta.printerColumns?.[0].name, 'Spec');
  });
});
