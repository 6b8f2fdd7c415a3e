import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDefinition } from '../registry/index.js';
import { cronTabs, leases } from '../../test/support/definitions.js';
import { DeprecatedApis, deprecationOf } from './deprecation.js';

const widgets: ResourceDefinition = {
  ...cronTabs,
  group: 'example.io',
  kind: 'Widget',
  resource: 'widgets',
  versions: ['v1', 'v1beta1', 'v1beta2', 'v1beta3'],
  subresources: ['status', 'scale'],
  lifecycle: {
    v1beta1: {
      deprecated: '1.30',
      removed: '1.35',
      replacement: { group: 'example.io', version: 'v1', kind: 'Widget' },
    },
    v1beta2: { deprecated: '1.31' },
    v1beta3: { deprecated: '1.33', removed: '1.36' },
  },
};

describe('deprecated API versions', () => {
  it("answer with kube's warning text, naming removal and replacement", () => {
    assert.deepEqual(deprecationOf(widgets, 'v1beta1'), {
      warning:
        'example.io/v1beta1 Widget is deprecated in v1.30+, unavailable in v1.35+; use example.io/v1 Widget',
      removedRelease: '1.35',
    });
    assert.deepEqual(deprecationOf(widgets, 'v1beta2'), {
      warning: 'example.io/v1beta2 Widget is deprecated in v1.31+',
      removedRelease: '',
    });
  });

  it('names core versions without a group', () => {
    const events = {
      ...leases,
      group: '',
      kind: 'ComponentStatus',
      lifecycle: { v1: { deprecated: '1.19' } },
    };
    assert.equal(deprecationOf(events, 'v1')?.warning, 'v1 ComponentStatus is deprecated in v1.19+');
  });

  it('is not deprecated before its deprecation release, nor without one', () => {
    assert.equal(deprecationOf(widgets, 'v1beta3'), undefined);
    assert.ok(deprecationOf(widgets, 'v1beta3', '', { major: 1, minor: 33 }));
    assert.equal(deprecationOf(widgets, 'v1beta1', '', { major: 1, minor: 29 }), undefined);
    assert.equal(deprecationOf(widgets, 'v1'), undefined);
    assert.equal(deprecationOf(leases, 'v1'), undefined);
  });

  it('covers subresources of the same kind (status), not those with a kind of their own (scale)', () => {
    assert.ok(deprecationOf(widgets, 'v1beta1', 'status'));
    assert.equal(deprecationOf(widgets, 'v1beta1', 'scale'), undefined);
  });
});

describe('the record of deprecated APIs requested', () => {
  it('keeps each group, version, resource and subresource once, in the order first seen', () => {
    const record = new DeprecatedApis();
    assert.deepEqual(record.requested(), []);
    const request = {
      group: 'example.io',
      version: 'v1beta1',
      resource: 'widgets',
      subresource: '',
      removed_release: '1.35',
    };
    record.record(request);
    record.record({ ...request });
    record.record({ ...request, subresource: 'status' });
    record.record({ ...request, version: 'v1beta2', removed_release: '' });
    assert.deepEqual(record.requested(), [
      request,
      { ...request, subresource: 'status' },
      { ...request, version: 'v1beta2', removed_release: '' },
    ]);
    assert.throws(() => ((record.requested()[0] as { group: string }).group = 'x'), 'entries are frozen');
  });
});
