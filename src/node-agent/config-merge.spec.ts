/**
 * The --config-dir merge, by the spec's three rules (part2 "Node-agent configuration merge"): each case lays one
 * drop-in over a configuration and names the rule it shows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeConfig, type Json } from './config-merge.js';

interface Case {
  name: string;
  base: Json;
  dropIn: Json;
  want: Json;
}

const rule1: Case[] = [
  {
    name: 'a scalar in the drop-in overrides the main file',
    base: { port: 20250, address: '192.168.0.1' },
    dropIn: { address: '192.168.0.8' },
    want: { port: 20250, address: '192.168.0.8' },
  },
  {
    name: 'an embedded structure overrides field by field, its other fields kept',
    base: {
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m', cacheUnauthorizedTTL: '30s' } },
    },
    dropIn: { authorization: { webhook: { cacheUnauthorizedTTL: '45s' } } },
    want: {
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m', cacheUnauthorizedTTL: '45s' } },
    },
  },
  {
    name: 'a structure the main file lacks is taken whole',
    base: { port: 10250 },
    dropIn: { authentication: { anonymous: { enabled: false } } },
    want: { port: 10250, authentication: { anonymous: { enabled: false } } },
  },
  {
    name: 'a scalar may change type of value (false over true, 0 over a number)',
    base: { authentication: { webhook: { enabled: true } }, maxPods: 110 },
    dropIn: { authentication: { webhook: { enabled: false } }, maxPods: 0 },
    want: { authentication: { webhook: { enabled: false } }, maxPods: 0 },
  },
  {
    name: 'null removes a field, which takes its default again later',
    base: { port: 20250, address: '10.0.0.1' },
    dropIn: { address: null },
    want: { port: 20250 },
  },
];

const rule2: Case[] = [
  {
    name: 'a list is replaced whole, not appended to',
    base: { clusterDNS: ['10.0.0.10', '10.0.0.11'] },
    dropIn: { clusterDNS: ['10.0.0.53'] },
    want: { clusterDNS: ['10.0.0.53'] },
  },
  {
    name: 'an empty list empties it',
    base: { tlsCipherSuites: ['TLS_AES_128_GCM_SHA256'] },
    dropIn: { tlsCipherSuites: [] },
    want: { tlsCipherSuites: [] },
  },
  {
    name: 'a list of objects is replaced whole, its items not merged',
    base: {
      registerWithTaints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'b', effect: 'NoExecute' },
      ],
    },
    dropIn: { registerWithTaints: [{ key: 'a', value: 'x' }] },
    want: { registerWithTaints: [{ key: 'a', value: 'x' }] },
  },
];

const rule3: Case[] = [
  {
    name: 'a map merges per key: new keys added, named keys overridden, others kept',
    base: { featureGates: { ContainerCheckpoint: true, WatchList: true } },
    dropIn: { featureGates: { ContainerCheckpoint: false, AllAlpha: false } },
    want: { featureGates: { ContainerCheckpoint: false, WatchList: true, AllAlpha: false } },
  },
  {
    name: 'map[string][]string: the list of a named key is replaced whole, other keys kept',
    base: { staticPodURLHeader: { 'X-A': ['1', '2'], 'X-B': ['3'] } },
    dropIn: { staticPodURLHeader: { 'X-A': ['9'] } },
    want: { staticPodURLHeader: { 'X-A': ['9'], 'X-B': ['3'] } },
  },
  {
    name: 'a map key set to null is removed',
    base: { evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%' } },
    dropIn: { evictionHard: { 'nodefs.available': null } },
    want: { evictionHard: { 'memory.available': '100Mi' } },
  },
  {
    name: 'a map of strings merges per key',
    base: { systemReserved: { cpu: '100m', memory: '100Mi' } },
    dropIn: { systemReserved: { memory: '1Gi' } },
    want: { systemReserved: { cpu: '100m', memory: '1Gi' } },
  },
];

describe('--config-dir merge', () => {
  for (const [rule, cases] of [
    ['rule 1: scalars and embedded structures override field by field', rule1],
    ['rule 2: lists are replaced whole', rule2],
    ['rule 3: maps merge per key; a list under a key is replaced whole', rule3],
  ] as const) {
    describe(rule, () => {
      for (const c of cases) {
        it(c.name, () => {
          const base = structuredClone(c.base);
          assert.deepEqual(mergeConfig(c.base, c.dropIn), c.want);
          assert.deepEqual(c.base, base, 'the configuration merged onto is left as it was');
        });
      }
    });
  }

  it('drop-ins apply in order: a later one wins where both speak', () => {
    const dropIns: Json[] = [{ port: 1, address: 'a' }, { port: 2 }, { port: 3, maxPods: 5 }];
    const merged = dropIns.reduce<Json>((at, d) => mergeConfig(at, d), {
      port: 0,
      address: 'x',
      maxPods: 110,
    });
    assert.deepEqual(merged, { port: 3, address: 'a', maxPods: 5 });
  });

  it('a key named __proto__ is a field, never the prototype', () => {
    const merged = mergeConfig({}, JSON.parse('{"__proto__": {"polluted": true}}')) as object;
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(merged), ['__proto__']);
  });
});
