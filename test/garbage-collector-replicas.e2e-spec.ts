/**
 * The garbage collector beyond one steady server: two replicas collecting side by side, and a collector
 * starting on work left while it was off (owners deleted, foreground and orphan deletions pending).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { useServer } from './support/use-server.js';

/** how long the collector may take to delete the dependents of a deleted owner */
const COLLECT_MS = 2000;

describe('garbage collector on two replicas', () => {
  const s = useServer({ replicas: 2 });

  it('both collect; racing each other costs no failed write, and the dependents go within 2 s', async () => {
    const [a, b] = s.servers;
    const cms = '/api/v1/namespaces/default/configmaps';
    const owner = (
      await a.request('POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r-owner' } },
      })
    ).json;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'r-owner', uid: owner.metadata.uid };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).request('POST', cms, {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `r-dep-${i}`, ownerReferences: [ref] },
          },
        }),
      ),
    );
    const started = Date.now();
    assert.equal((await b.request('DELETE', `${cms}/r-owner`)).status, 200);
    await eventually(
      async () => {
        const items = (await a.request('GET', cms)).json.items as any[];
        return !items.some((i) => i.metadata.name.startsWith('r-dep-'));
      },
      'dependents gone',
      COLLECT_MS,
    );
    console.log(`# garbage collector, two replicas: 20 dependents collected in ${Date.now() - started} ms`);
    for (const server of s.servers) assert.doesNotMatch(server.output(), /garbage-collector/);
  });
});

describe('garbage collector starting on work left while it was off', () => {
  const s = useServer({ args: ['--controllers=*,-garbagecollector'] });
  const cms = '/api/v1/namespaces/default/configmaps';
  const cm = async (name: string, owner?: any, blockOwnerDeletion?: boolean) =>
    (
      await s.request('POST', cms, {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name,
            ...(owner
              ? {
                  ownerReferences: [
                    {
                      apiVersion: 'v1',
                      kind: 'ConfigMap',
                      name: owner.metadata.name,
                      uid: owner.metadata.uid,
                      blockOwnerDeletion,
                    },
                  ],
                }
              : {}),
          },
        },
      })
    ).json;
  const status = async (name: string) => (await s.request('GET', `${cms}/${name}`)).status;

  it('collects the dependents of owners deleted meanwhile, and finishes foreground and orphan deletions', async () => {
    await cm('dep-bg', await cm('gone-owner'));
    await s.request('DELETE', `${cms}/gone-owner`);
    await cm('dep-fg', await cm('fg-owner'), true);
    await s.request('DELETE', `${cms}/fg-owner`, { body: { propagationPolicy: 'Foreground' } });
    await cm('dep-orphan', await cm('orphan-owner'));
    await s.request('DELETE', `${cms}/orphan-owner`, { body: { propagationPolicy: 'Orphan' } });
    await new Promise((r) => setTimeout(r, 500));
    for (const name of ['dep-bg', 'fg-owner', 'dep-fg', 'orphan-owner', 'dep-orphan'])
      assert.equal(await status(name), 200, `${name} waits while no collector runs`);

    await s.restart({ args: [] });
    await eventually(
      async () =>
        (await Promise.all(['dep-bg', 'fg-owner', 'dep-fg', 'orphan-owner'].map(status))).every(
          (c) => c === 404,
        ),
      'work done at start',
      COLLECT_MS,
    );
    const orphan = (await s.request('GET', `${cms}/dep-orphan`)).json;
    assert.equal(orphan.metadata.ownerReferences, undefined);
  });
});
