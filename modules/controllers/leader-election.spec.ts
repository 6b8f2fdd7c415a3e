/**
 * Two electors on one real PostgreSQL, each with its own connection pool (two replicas): one leads, the other
 * takes over when the leader hands the Lease back or can no longer reach the database, and at no moment do
 * both lead.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { eventually } from '../../test/support/eventually.js';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { leaseDefinition } from '../kinds/index.js';
import { GenericStore } from '../registry/index.js';
import { connect, migrate, PostgresStore } from '../storage/index.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';

const NS = 'kube-system';
const timing = { leaseDurationMs: 2000, renewDeadlineMs: 1200, retryPeriodMs: 300 };

describe('LeaderElector', () => {
  let db: TestDatabase;
  const pools: postgres.Sql[] = [];
  const electors: LeaderElector[] = [];
  /** who led when: [identity, start, end (undefined while leading)] */
  const terms: [string, number, number | undefined][] = [];

  function replica(identity: string, name: string, options: Partial<LeaderElectionOptions> = {}) {
    const sql = connect(db.url, 2);
    pools.push(sql);
    const generic = new GenericStore(new PostgresStore(sql));
    const elector = new LeaderElector(generic, () => leaseDefinition, {
      namespace: NS,
      name,
      identity,
      ...timing,
      ...options,
    });
    electors.push(elector);
    elector.start({
      onStartedLeading: () => void terms.push([identity, performance.now(), undefined]),
      onStoppedLeading: () => {
        const term = terms.findLast((t) => t[0] === identity && t[2] === undefined);
        if (term) term[2] = performance.now();
      },
    });
    return { elector, sql, generic };
  }

  const leaders = () => terms.filter((t) => t[2] === undefined).map((t) => t[0]);
  const lease = async (generic: GenericStore, name: string) =>
    (await generic.get(leaseDefinition, NS, name)).spec as Record<string, unknown>;

  /** no two terms overlap */
  function assertOneAtATime(): void {
    const sorted = [...terms].sort((a, b) => a[1] - b[1]);
    for (let i = 1; i < sorted.length; i++) {
      const prevEnd = sorted[i - 1][2];
      assert.ok(prevEnd !== undefined && prevEnd <= sorted[i][1], `terms overlap: ${JSON.stringify(sorted)}`);
    }
  }

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
  });

  after(async () => {
    await Promise.all(electors.map((e) => e.stop()));
    await Promise.all(pools.map((p) => p.end({ timeout: 1 })));
    await db?.drop();
  });

  it('one of two leads; stopped, it hands the Lease back and the other takes over at once', async () => {
    const a = replica('a', 'handover');
    await eventually(() => leaders().length === 1, 'a leads', 5000);
    const b = replica('b', 'handover');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(leaders(), ['a']);
    const held = await lease(b.generic, 'handover');
    assert.equal(held.holderIdentity, 'a');
    assert.equal(held.leaseDurationSeconds, 2);
    assert.equal(held.leaseTransitions, 0);
    assert.match(String(held.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.ok(String(held.renewTime) > String(held.acquireTime), 'renewed since acquired');

    const stoppedAt = performance.now();
    await a.elector.stop();
    assert.equal((await lease(b.generic, 'handover')).holderIdentity !== 'a', true);
    await eventually(() => leaders().join() === 'b', 'b leads', 5000);
    // a released Lease is free at once: no lease duration to wait out (b tries every retry period, jittered)
    assert.ok(performance.now() - stoppedAt < 1500, 'taken over within a retry period or two');
    const taken = await lease(b.generic, 'handover');
    assert.equal(taken.holderIdentity, 'b');
    assert.equal(taken.leaseTransitions, 1);
    assertOneAtATime();
    await b.elector.stop();
  });

  it('a leader cut off from the database steps down; another takes over after the lease duration, never before', async () => {
    terms.length = 0;
    const a = replica('c', 'cutoff');
    await eventually(() => leaders().join() === 'c', 'c leads', 5000);
    const b = replica('d', 'cutoff');
    await new Promise((r) => setTimeout(r, 600));
    // c can no longer write: its renewals fail, and nothing hands the Lease back
    const cutAt = performance.now();
    await a.sql.end({ timeout: 0 });
    await eventually(() => leaders().join() === 'd', 'd leads', 10_000);
    const cTerm = terms.find((t) => t[0] === 'c')!;
    const dTerm = terms.find((t) => t[0] === 'd')!;
    // c stopped within a retry period plus the renew deadline of its last renewal
    assert.ok(
      cTerm[2]! - cutAt <= timing.retryPeriodMs + timing.renewDeadlineMs + 300,
      'c stepped down in time',
    );
    // d waited the lease duration from the last renewal it saw
    assert.ok(dTerm[1] - cutAt >= timing.leaseDurationMs - timing.retryPeriodMs, 'd waited out the lease');
    assert.ok(
      dTerm[1] - cutAt <= timing.leaseDurationMs + 3 * timing.retryPeriodMs + 500,
      'd took over soon after',
    );
    assertOneAtATime();
    const taken = await lease(b.generic, 'cutoff');
    assert.equal(taken.holderIdentity, 'd');
    assert.equal(taken.leaseTransitions, 1);
  });

  it('refuses timings where a leader could outlive its lease', () => {
    assert.throws(
      () =>
        new LeaderElector(new GenericStore(new PostgresStore(pools[0])), () => leaseDefinition, {
          namespace: NS,
          name: 'x',
          identity: 'x',
          leaseDurationMs: 10_000,
          renewDeadlineMs: 10_000,
        }),
      /renew deadline must be shorter/,
    );
  });
});
