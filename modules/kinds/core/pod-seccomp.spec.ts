import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveSeccompProfile } from './pod-seccomp.js';

const ctx = (type?: string, localhostProfile?: string) =>
  type
    ? { securityContext: { seccompProfile: localhostProfile ? { type, localhostProfile } : { type } } }
    : {};

describe('effective seccomp profile of a container', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, object | undefined][] = [
    ['neither sets one', {}, {}, undefined],
    ['the pod’s is inherited', ctx('RuntimeDefault'), {}, { type: 'RuntimeDefault' }],
    [
      'the container’s overrides the pod’s',
      ctx('RuntimeDefault'),
      ctx('Localhost', 'audit.json'),
      { type: 'Localhost', localhostProfile: 'audit.json' },
    ],
    ['the container’s alone', {}, ctx('Unconfined'), { type: 'Unconfined' }],
    [
      'a container security context without a profile inherits',
      ctx('Localhost', 'a.json'),
      { securityContext: { runAsUser: 1 } },
      { type: 'Localhost', localhostProfile: 'a.json' },
    ],
  ];
  for (const [name, spec, container, want] of cases) {
    it(name, () => assert.deepEqual(effectiveSeccompProfile(spec, container), want));
  }
});
