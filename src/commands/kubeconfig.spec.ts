/** `pgkube kubeconfig` flags: what is required, what goes together, errors naming the flags. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../config/config.js';
import { parseKubeconfigCommand } from './kubeconfig.js';

describe('pgkube kubeconfig flags', () => {
  it('reads the user, repeated groups, the expiration and the files', () => {
    assert.deepEqual(
      parseKubeconfigCommand([
        '--data-dir=/d',
        '--user',
        'alice',
        '--group=dev',
        '--group',
        'qa',
        '--expiration=1h30m',
        '--out=/tmp/k',
        '--client-ca-file=/ca.crt',
        '--client-ca-key-file=/ca.key',
      ]),
      {
        dataDir: '/d',
        user: 'alice',
        groups: ['dev', 'qa'],
        expirationMs: 5_400_000,
        out: '/tmp/k',
        clientCaFile: '/ca.crt',
        clientCaKeyFile: '/ca.key',
      },
    );
  });

  it('defaults: ./.pgkube, 24h, no groups, stdout', () => {
    const o = parseKubeconfigCommand(['--user=bob']);
    assert.ok(o !== 'help');
    assert.deepEqual(
      [o.dataDir, o.expirationMs, o.groups, o.out],
      [path.resolve('.pgkube'), 86_400_000, [], undefined],
    );
  });

  for (const [argv, message] of [
    [[], /--user is required/],
    [['--user='], /--user is required/],
    [
      ['--user=a', '--client-ca-key-file=k'],
      /--client-ca-file and --client-ca-key-file must be given together/,
    ],
    [['--user=a', '--client-ca-file=c'], /--client-ca-file and --client-ca-key-file must be given together/],
    [['--user=a', '--expiration=soon'], /--expiration: "soon" is not a duration/],
    [['--user=a', '--user=b'], /--user given more than once/],
    [['--user=a', '--group='], /--group: empty group name/],
    [['--user=a', '--nope=1'], /unexpected argument "--nope=1"/],
    [['--user'], /flag needs an argument: --user/],
    [
      ['--user=a', '--exec-service-account=robot', '--out=f'],
      /--exec-service-account must be NAMESPACE\/NAME/,
    ],
    [
      ['--user=a', '--exec-service-account=a/b/c', '--out=f'],
      /--exec-service-account must be NAMESPACE\/NAME/,
    ],
    [['--user=a', '--exec-service-account=default/robot'], /--exec-service-account needs --out FILE/],
  ] as const) {
    it(`refuses ${argv.join(' ') || 'no flags'}`, () => {
      assert.throws(
        () => parseKubeconfigCommand([...argv]),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
    });
  }
});
