import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('applies defaults and DATABASE_URL', () => {
    const c = parseConfig(['serve'], { DATABASE_URL: 'postgres://x/y' });
    assert.equal(c.command, 'serve');
    assert.equal(c.dataDir, path.resolve('.pgkube'));
    assert.equal(c.databaseUrl, 'postgres://x/y');
    assert.equal(c.bindAddress, '127.0.0.1');
    assert.equal(c.securePort, 6443);
  });

  it('reads --flag=value and --flag value forms; flags win over env', () => {
    const c = parseConfig(
      ['serve', '--secure-port=0', '--database-url', 'postgres://a/b', '--data-dir=/tmp/d'],
      {
        DATABASE_URL: 'postgres://x/y',
      },
    );
    assert.equal(c.securePort, 0);
    assert.equal(c.databaseUrl, 'postgres://a/b');
    assert.equal(c.dataDir, '/tmp/d');
  });

  it('reads kube durations for --history-retention', () => {
    assert.equal(parseConfig([], {}).historyRetentionMs, 300_000);
    assert.equal(parseConfig(['--history-retention=30s'], {}).historyRetentionMs, 30_000);
    assert.equal(parseConfig(['--history-retention=1h30m'], {}).historyRetentionMs, 5_400_000);
    assert.throws(() => parseConfig(['--history-retention=5 minutes'], {}), /not a duration/);
  });

  it('defaults to serve without a command', () => {
    assert.equal(parseConfig(['--secure-port=1'], {}).command, 'serve');
  });

  for (const [argv, message] of [
    [['serve', '--nope=1'], /unknown flag: --nope/],
    [['serve', '--secure-port=70000'], /not a valid port/],
    [['serve', '--secure-port'], /needs an argument/],
    [['frobnicate'], /unknown command/],
    [['serve', '--tls-cert-file=a'], /must be given together/],
    [['migrate'], /needs --database-url/],
  ] as const) {
    it(`rejects ${argv.join(' ')}`, () => {
      assert.throws(
        () => parseConfig([...argv], {}),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
    });
  }
});
