import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { always, flag, HealthEndpoint, withGracePeriod, withTimeout } from './health.js';

describe('health endpoint', () => {
  let dbUp = true;
  const readyz = new HealthEndpoint('readyz', [
    always('ping'),
    always('log'),
    flag('postgres', () => dbUp, 'postgres unreachable'),
  ]);

  it('answers ok, or lists every check with verbose', async () => {
    dbUp = true;
    assert.deepEqual(await readyz.all(false, []), { status: 200, body: 'ok' });
    assert.deepEqual(await readyz.all(true, []), {
      status: 200,
      body: '[+]ping ok\n[+]log ok\n[+]postgres ok\nreadyz check passed\n',
    });
  });

  it('fails with 500 and withholds the reason', async () => {
    dbUp = false;
    assert.deepEqual(await readyz.all(false, []), {
      status: 500,
      body: '[+]ping ok\n[+]log ok\n[-]postgres failed: reason withheld\nreadyz check failed\n',
    });
  });

  it('excludes checks, and says which exclusions matched nothing', async () => {
    dbUp = false;
    assert.deepEqual(await readyz.all(true, ['postgres', 'nope']), {
      status: 200,
      body: '[+]ping ok\n[+]log ok\n[+]postgres excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    });
  });

  it('runs one check by name', async () => {
    dbUp = true;
    assert.deepEqual(await readyz.one('ping'), { status: 200, body: 'ok' });
    assert.equal(await readyz.one('missing'), undefined);
    dbUp = false;
    assert.equal((await readyz.one('postgres'))?.status, 500);
  });

  it('a check that does not answer in time fails', async () => {
    const slow = withTimeout('slow', 20, () => new Promise((r) => setTimeout(r, 1000)));
    await assert.rejects(slow.check());
  });

  it('--livez-grace-period: a start-up check passes until the grace period is over, then tells the truth', async () => {
    let now = 1_000;
    let started = false;
    const hook = withGracePeriod(
      flag('poststarthook/x', () => started, 'not finished'),
      5_000,
      () => now,
    );
    const livez = new HealthEndpoint('livez', [always('ping'), hook]);
    assert.equal((await livez.all(false, [])).status, 200, 'within the grace period');
    assert.equal((await livez.one('poststarthook/x'))?.status, 200);
    now = 5_999;
    assert.equal((await livez.all(false, [])).status, 200);
    now = 6_000;
    assert.deepEqual(await livez.all(false, []), {
      status: 500,
      body: '[+]ping ok\n[-]poststarthook/x failed: reason withheld\nlivez check failed\n',
    });
    started = true;
    assert.equal((await livez.all(false, [])).status, 200);
  });

  it('--livez-grace-period=0: start-up checks count from the start', async () => {
    const hook = withGracePeriod(
      flag('poststarthook/x', () => false, 'not finished'),
      0,
    );
    await assert.rejects(hook.check());
  });
});
