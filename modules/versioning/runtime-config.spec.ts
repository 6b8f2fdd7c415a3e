import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError } from './flag-error.js';
import { parseRuntimeConfig } from './runtime-config.js';

function entries(...values: string[]) {
  return parseRuntimeConfig(values).entries.map((e) => ({ target: e.target, enabled: e.enabled }));
}

function errorOf(...values: string[]): string {
  try {
    parseRuntimeConfig(values);
  } catch (e) {
    assert.ok(e instanceof FlagError, String(e));
    return e.message;
  }
  assert.fail(`${values.join(' ')} was accepted`);
}

describe('--runtime-config', () => {
  it('reads the level switches api/all, api/ga, api/beta, api/alpha', () => {
    assert.deepEqual(entries('api/all=false,api/ga=true,api/beta=false,api/alpha=true'), [
      { target: { kind: 'level', level: 'all' }, enabled: false },
      { target: { kind: 'level', level: 'ga' }, enabled: true },
      { target: { kind: 'level', level: 'beta' }, enabled: false },
      { target: { kind: 'level', level: 'alpha' }, enabled: true },
    ]);
  });

  it('reads <group>/<version> and <group>/<version>/<resource>', () => {
    assert.deepEqual(entries('batch/v1=false,storage.k8s.io/v1beta1/csistoragecapacities=true'), [
      { target: { kind: 'version', group: 'batch', version: 'v1' }, enabled: false },
      {
        target: {
          kind: 'resource',
          group: 'storage.k8s.io',
          version: 'v1beta1',
          resource: 'csistoragecapacities',
        },
        enabled: true,
      },
    ]);
  });

  it('reads every spelling of the core group: v1, /v1, api/v1, with or without a resource', () => {
    for (const key of ['v1', '/v1', 'api/v1']) {
      assert.deepEqual(entries(`${key}=false`), [
        { target: { kind: 'version', group: '', version: 'v1' }, enabled: false },
      ]);
      assert.deepEqual(entries(`${key}/configmaps=false`), [
        { target: { kind: 'resource', group: '', version: 'v1', resource: 'configmaps' }, enabled: false },
      ]);
    }
  });

  it('takes an omitted value as true, and reads Go booleans for versions and resources', () => {
    assert.deepEqual(entries('batch/v2alpha1,api/alpha'), [
      { target: { kind: 'version', group: 'batch', version: 'v2alpha1' }, enabled: true },
      { target: { kind: 'level', level: 'alpha' }, enabled: true },
    ]);
    assert.equal(entries('batch/v1=')[0].enabled, true);
    assert.equal(entries('batch/v1=0')[0].enabled, false);
    assert.equal(entries('batch/v1=T')[0].enabled, true);
  });

  it('merges repeated flags and skips empty items', () => {
    assert.equal(entries('batch/v1=false,', ',apps/v1=false').length, 2);
  });

  it('accepts a key repeated with the same value, refuses it with another', () => {
    assert.equal(entries('batch/v1=false,batch/v1=0').length, 1);
    assert.equal(
      errorOf('v1=false', 'api/v1=true'),
      '--runtime-config: conflicting values for v1: v1=false and api/v1=true',
    );
    assert.match(errorOf('api/all=true,api/all=false'), /conflicting values for api\/all/);
  });

  it('refuses malformed keys', () => {
    for (const key of ['batch', 'a/b/c/d', 'batch/', 'batch/v1/', '/']) {
      assert.match(errorOf(`${key}=true`), new RegExp(`invalid key ${key.replace(/\//g, '\\/')}`), key);
    }
    assert.equal(
      errorOf('apps/v1/Deployment=false'),
      '--runtime-config: invalid key apps/v1/Deployment: group/version/resource and resource is always lowercase plural, not "Deployment"',
    );
  });

  it('refuses values that are not booleans', () => {
    assert.equal(
      errorOf('batch/v1=maybe'),
      '--runtime-config: invalid value of batch/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    // kube reads the level switches as exactly true or false
    assert.match(errorOf('api/all=1'), /invalid value of api\/all: 1/);
  });

  it('ignores the retired api/legacy with a warning', () => {
    const config = parseRuntimeConfig(['api/legacy=false,batch/v1=false']);
    assert.equal(config.entries.length, 1);
    assert.deepEqual(config.warnings, ['--runtime-config: api/legacy is deprecated and has no effect']);
  });
});
