import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Circuit, type CircuitOptions } from './circuit.js';
import { StorageTimeoutError, UnavailableError } from './store.js';

class ConnectionLost extends Error {
  code = 'ECONNREFUSED';
}

/** the driver's connection errors become UnavailableError, others stay as they are */
const translate = (e: unknown) =>
  e instanceof ConnectionLost ? new UnavailableError(undefined, { cause: e }) : e;

const options: CircuitOptions = { waitMs: 100, queryTimeoutMs: 200, probeIntervalMs: 30, probeTimeoutMs: 50 };

/** a statement that answers when told (and records a cancel) */
function statement<T>(): Promise<T> & {
  cancel(): void;
  cancelled: boolean;
  answer(v: T): void;
  fail(e: unknown): void;
} {
  let answer!: (v: T) => void;
  let fail!: (e: unknown) => void;
  const p = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  }) as Promise<T> & { cancel(): void; cancelled: boolean; answer(v: T): void; fail(e: unknown): void };
  p.cancelled = false;
  p.cancel = () => (p.cancelled = true);
  p.answer = answer;
  p.fail = fail;
  p.catch(() => undefined);
  return p;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('storage circuit', () => {
  const circuits: Circuit[] = [];
  /** the database: up or down, as the probe sees it */
  let up = true;
  let probes = 0;
  const make = (o: Partial<CircuitOptions> = {}) => {
    up = true;
    probes = 0;
    const c = new Circuit(
      async () => {
        probes++;
        if (!up) throw new ConnectionLost('connect ECONNREFUSED 127.0.0.1:5432');
      },
      translate,
      { ...options, ...o },
    );
    circuits.push(c);
    return c;
  };
  afterEach(() => circuits.splice(0).forEach((c) => c.stop()));
  // the circuit's timers do not keep a process alive (a hung statement's socket does, in the server)
  let alive: NodeJS.Timeout;
  before(() => (alive = setInterval(() => undefined, 1000)));
  after(() => clearInterval(alive));

  it('passes answers and statement errors through while closed', async () => {
    const c = make();
    assert.equal(await c.run(Promise.resolve(42)), 42);
    const bug = new Error('syntax error at or near "SELEC"');
    await assert.rejects(c.run(Promise.reject(bug)), (e) => e === bug);
    assert.equal(c.open, false);
  });

  it('a connection failure that the probe confirms opens it: what is in flight fails at once, new calls fail without the driver', async () => {
    const c = make();
    up = false;
    const slow = statement<number>();
    const inFlight = c.run(slow);
    inFlight.catch(() => undefined); // rejected before the test looks at it
    const failing = statement<number>();
    const first = c.run(failing);
    failing.fail(new ConnectionLost('read ECONNRESET'));
    await assert.rejects(first, (e) => e instanceof UnavailableError && !/ECONN/.test((e as Error).message));
    await sleep(5); // the probe fails: open
    assert.equal(c.open, true);
    await assert.rejects(inFlight, UnavailableError);
    assert.equal(slow.cancelled, true, 'a statement still queued in the driver is taken out');
    let started = false;
    const later = { then: () => (started = true) } as unknown as Promise<number>;
    await assert.rejects(c.run(later), UnavailableError);
    assert.equal(started, false, 'the driver is not asked while open');
  });

  it('a connection failure that the probe does not confirm leaves it closed', async () => {
    const c = make();
    const other = statement<number>();
    const inFlight = c.run(other);
    const failing = statement<number>();
    const first = c.run(failing);
    failing.fail(new ConnectionLost('terminating connection due to administrator command'));
    await assert.rejects(first, UnavailableError);
    await sleep(5);
    assert.equal(probes, 1);
    assert.equal(c.open, false);
    other.answer(3);
    assert.equal(await inFlight, 3);
  });

  it('a read whose connection failed runs once more when the probe finds the database, not when it does not', async () => {
    const c = make();
    const attempts: ReturnType<typeof statement<number>>[] = [];
    const read = c.read(() => {
      const s = statement<number>();
      attempts.push(s);
      return s;
    });
    attempts[0].fail(new ConnectionLost('terminating connection due to administrator command'));
    await sleep(5);
    assert.equal(attempts.length, 2, 'the database answered the probe: run again');
    attempts[1].answer(9);
    assert.equal(await read, 9);

    up = false;
    const down = c.read(() => {
      const s = statement<number>();
      attempts.push(s);
      return s;
    });
    attempts[2].fail(new ConnectionLost('read ECONNRESET'));
    await assert.rejects(down, UnavailableError);
    assert.equal(attempts.length, 3, 'not run again: the probe found the database away');
    assert.equal(c.open, true);

    const bug = new Error('syntax error');
    await assert.rejects(
      make().read(() => Promise.reject(bug)),
      (e) => e === bug,
    );
  });

  it('while open, a call waits at most waitMs; one waiting when it closes goes on', async () => {
    const c = make({ probeIntervalMs: 20, waitMs: 100 });
    up = false;
    c.trip();
    const t0 = Date.now();
    await assert.rejects(c.wait(), UnavailableError);
    const waited = Date.now() - t0;
    assert.ok(waited >= 90 && waited < 300, `waited ${waited} ms`);
    const pending = c.wait();
    await sleep(30);
    up = true;
    await pending;
    assert.equal(c.open, false);
    assert.ok(Date.now() - t0 < waited + 100, 'resumed by the first probe that answers');
  });

  it('probes every probeIntervalMs while open and closes on the first answer, telling its listeners', async () => {
    const c = make();
    const seen: boolean[] = [];
    c.onChange((open) => seen.push(open));
    up = false;
    c.trip();
    await sleep(150);
    assert.equal(c.open, true);
    assert.ok(probes >= 3 && probes <= 7, `${probes} probes in 150 ms at 30 ms`);
    up = true;
    await sleep(60);
    assert.equal(c.open, false);
    assert.deepEqual(seen, [true, false]);
    assert.equal(await c.run(Promise.resolve('ok')), 'ok');
  });

  it('a probe that does not answer counts as a failure', async () => {
    const c = new Circuit(() => new Promise(() => undefined), translate, options);
    circuits.push(c);
    c.trip();
    await sleep(120);
    assert.equal(c.open, true);
  });

  it('a statement past its timeout fails with StorageTimeoutError and is cancelled; the database is probed', async () => {
    const c = make({ queryTimeoutMs: 60 });
    const hung = statement<number>();
    const t0 = Date.now();
    await assert.rejects(c.run(hung), StorageTimeoutError);
    const took = Date.now() - t0;
    assert.ok(took >= 55 && took < 200, `timed out after ${took} ms`);
    assert.equal(hung.cancelled, true);
    await sleep(20);
    assert.ok(probes >= 1, 'probed after a timeout');
    assert.equal(c.open, false, 'the database answered the probe: still closed');
    // a late answer is ignored
    hung.answer(1);
  });

  it('a timeout while the database does not answer probes opens the circuit', async () => {
    const c = make({ queryTimeoutMs: 60 });
    up = false;
    await assert.rejects(c.run(statement<number>()), StorageTimeoutError);
    await sleep(30);
    assert.equal(c.open, true);
  });

  it('no timeout for statements run with Infinity', async () => {
    const c = make({ queryTimeoutMs: 30 });
    const long = statement<number>();
    const result = c.run(long, Infinity);
    await sleep(100);
    long.answer(7);
    assert.equal(await result, 7);
  });
});
