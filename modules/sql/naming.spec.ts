import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMaps, cronTabs, leases } from '../../test/support/definitions.js';
import { builtinDefinitions } from '../kinds/index.js';
import { Registry, type ResourceDefinition } from '../registry/index.js';
import { fieldColumns, snakeCase } from './columns.js';
import { fitIdentifier, viewNames } from './naming.js';

const named = (defs: ResourceDefinition[]) =>
  new Map([...viewNames(defs)].map(([def, name]) => [`${def.group}/${def.resource}`, name]));

describe('view names', () => {
  it('names built-in kinds by resource, and events.k8s.io Events not at all (they are core Events)', () => {
    const registry = new Registry();
    for (const def of builtinDefinitions) registry.register(def);
    const names = named([...registry.stored]);
    assert.equal(names.get('/configmaps'), 'configmaps');
    assert.equal(names.get('/secrets'), 'secrets');
    assert.equal(names.get('coordination.k8s.io/leases'), 'leases');
    assert.equal(names.get('/events'), 'events');
    assert.equal(names.has('events.k8s.io/events'), false);
    // one view per storage key, every name distinct
    assert.equal(new Set(names.values()).size, names.size);
  });

  it('a clash between built-in groups: core keeps the plain name, the other is <resource>.<group>', () => {
    const otherLeases = { ...leases, group: 'example.k8s.io' };
    const coreLeases = { ...leases, group: '' };
    const names = named([otherLeases, leases, coreLeases]);
    assert.equal(names.get('/leases'), 'leases');
    assert.equal(names.get('coordination.k8s.io/leases'), 'leases.coordination.k8s.io');
    assert.equal(names.get('example.k8s.io/leases'), 'leases.example.k8s.io');
    // without core in the clash both are qualified: no name depends on registration order
    const two = named([otherLeases, leases]);
    assert.equal(two.get('coordination.k8s.io/leases'), 'leases.coordination.k8s.io');
    assert.equal(two.get('example.k8s.io/leases'), 'leases.example.k8s.io');
  });

  it('names a CRD kind <resource>.<group> always, and it never renames a built-in kind', () => {
    const crd = { ...cronTabs, declaredServing: true };
    const sameResource = { ...crd, resource: 'configmaps', group: 'example.com' };
    const names = named([configMaps, crd, sameResource]);
    assert.equal(names.get('stable.example.com/crontabs'), 'crontabs.stable.example.com');
    assert.equal(names.get('example.com/configmaps'), 'configmaps.example.com');
    assert.equal(names.get('/configmaps'), 'configmaps');
  });

  it('qualifies a built-in resource named like a view of its own (changes, audit_events)', () => {
    const names = named([{ ...configMaps, resource: 'changes' }]);
    assert.equal(names.get('/changes'), 'changes.core');
  });

  it('shortens names PostgreSQL would cut, keeping long names apart', () => {
    const long = `${'w'.repeat(40)}.${'g'.repeat(30)}.example.com`;
    const other = `${'w'.repeat(40)}.${'g'.repeat(30)}.example.org`;
    assert.equal(fitIdentifier('widgets.example.com'), 'widgets.example.com');
    assert.equal(Buffer.byteLength(fitIdentifier(long)), 63);
    assert.notEqual(fitIdentifier(long), fitIdentifier(other));
    assert.match(fitIdentifier(long), /^w{40}\.g{13}_[0-9a-f]{8}$/);
  });
});

describe('field columns', () => {
  it('one per top-level field of the stored version, in snake_case, the envelope left out', () => {
    const secrets = builtinDefinitions.find((d) => d.group === '' && d.resource === 'secrets')!;
    assert.deepEqual(fieldColumns(secrets), [
      { field: 'data', column: 'data' },
      { field: 'immutable', column: 'immutable' },
      { field: 'stringData', column: 'string_data' },
      { field: 'type', column: 'type' },
    ]);
    assert.equal(snakeCase('binaryData'), 'binary_data');
    assert.equal(snakeCase('podCIDRs'), 'pod_cidrs');
    assert.equal(snakeCase('roleRef'), 'role_ref');
    assert.equal(snakeCase('HTTPGet'), 'http_get');
    assert.equal(snakeCase('hostIPs'), 'host_ips');
    assert.equal(snakeCase('x-kubernetes-thing'), 'x_kubernetes_thing');
  });

  it("reads a CRD's storage version schema, and renames a field that would take a fixed column", () => {
    const crd: ResourceDefinition = {
      ...cronTabs,
      versions: ['v2', 'v1'],
      storageVersion: 'v1',
      perVersion: {
        v1: { schema: { type: 'object', properties: { spec: {}, name: {}, labels: {}, labels_field: {} } } },
        v2: { schema: { type: 'object', properties: { spec: {}, status: {} } } },
      },
    };
    assert.deepEqual(fieldColumns(crd), [
      { field: 'labels', column: 'labels_field' },
      { field: 'labels_field', column: 'labels_field_field' },
      { field: 'name', column: 'name_field' },
      { field: 'spec', column: 'spec' },
    ]);
  });
});
