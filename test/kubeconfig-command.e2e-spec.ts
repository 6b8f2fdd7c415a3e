/**
 * `pgkube kubeconfig` with the real kubectl: a kubeconfig (0600) for the server of a data dir whose client
 * certificate, signed by the data dir's CA, makes kubectl that user with those groups; errors naming what to
 * fix. The data dir's keys and tokens are 0600 in 0700 directories; a data dir of an older pgkube (a CA
 * without its key) starts with a new CA and says so; with `--client-ca-file` the server takes only that
 * CA's certificates, and the command signs with it given its key.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { testCa } from './support/certificates.js';
import { kubectl } from './support/kubectl.js';
import { runPgkube } from './support/server.js';
import { everything, grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const mode = async (p: string) => (await stat(p)).mode & 0o777;

/** The client certificate of a kubeconfig. */
function certificateOf(kubeconfig: string): X509Certificate {
  const user = parse(kubeconfig).users[0].user;
  return new X509Certificate(Buffer.from(user['client-certificate-data'], 'base64'));
}

describe('pgkube kubeconfig', () => {
  const s = useServer();
  let dir: string;
  let alice: string;
  const run = (kubeconfig: string, args: string[]) => kubectl(args, { kubeconfig, timeoutMs: 60_000 });

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-kubeconfig-'));
    alice = path.join(dir, 'alice.kubeconfig');
  });

  // this file proves who a credential makes the caller; what that caller may do is not its subject
  before(() => grant(s, 'authenticated-all', [group('system:authenticated')], everything));

  it('writes a kubeconfig (0600) with which kubectl is the user, in its groups', async () => {
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=alice',
      '--group=dev',
      '--group',
      'qa',
      `--out=${alice}`,
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.stdout, '');
    assert.equal(await mode(alice), 0o600);
    const listed = await run(alice, ['get', 'configmaps', '-n', 'default', '-o', 'name']);
    assert.equal(listed.code, 0, listed.stderr);

    const cert = certificateOf(await readFile(alice, 'utf8'));
    assert.equal(cert.subject.split('\n').sort().join(','), 'CN=alice,O=dev,O=qa');
    // default 24h
    const hours = (Date.parse(cert.validTo) - Date.now()) / 3600_000;
    assert.ok(hours > 23.9 && hours <= 24, String(hours));

    const whoami = await run(alice, ['auth', 'whoami', '-o', 'json']);
    assert.equal(whoami.code, 0, whoami.stderr);
    const info = JSON.parse(whoami.stdout).status.userInfo;
    assert.equal(info.username, 'alice');
    assert.deepEqual(info.groups, ['dev', 'qa', 'system:authenticated']);
  });

  it('--exec-service-account: kubectl runs pgkube credential and is the service account', async () => {
    assert.equal((await run(s.kubeconfig, ['create', 'serviceaccount', 'robot', '-n', 'default'])).code, 0);
    const robot = path.join(dir, 'robot.kubeconfig');
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=bob',
      '--exec-service-account=default/robot',
      `--out=${robot}`,
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(await mode(robot), 0o600);
    assert.equal(await mode(`${robot}.credential`), 0o600);
    const user = parse(await readFile(robot, 'utf8')).users[0].user;
    assert.equal(user['client-certificate-data'], undefined);
    assert.equal(user.exec.interactiveMode, 'Never');
    assert.equal(certificateOf(await readFile(`${robot}.credential`, 'utf8')).subject, 'CN=bob');

    const whoami = await run(robot, ['auth', 'whoami', '-o', 'json']);
    assert.equal(whoami.code, 0, whoami.stderr);
    const info = JSON.parse(whoami.stdout).status.userInfo;
    assert.equal(info.username, 'system:serviceaccount:default:robot');
    assert.ok(info.groups.includes('system:serviceaccounts:default'), info.groups.join());

    const noOut = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=bob',
      '--exec-service-account=default/robot',
    ]);
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /--exec-service-account needs --out FILE/);
  });

  it('prints to stdout without --out; kubectl is Forbidden by the name in the certificate', async () => {
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=carol',
      '--group=system:unauthenticated',
      '--expiration=2h',
    ]);
    assert.equal(made.code, 0, made.stderr);
    const hours = (Date.parse(certificateOf(made.stdout).validTo) - Date.now()) / 3600_000;
    assert.ok(hours > 1.9 && hours <= 2, String(hours));
    const carol = path.join(dir, 'carol.kubeconfig');
    await writeFile(carol, made.stdout);
    const r = await run(carol, ['get', 'configmaps', '-n', 'default']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /User "carol" cannot list resource "configmaps"/);
  });

  // (every flag error: src/commands/kubeconfig.spec.ts)
  it('errors name what to fix, with exit code 2 for flags and 1 for the rest', async () => {
    const missing = await runPgkube(['kubeconfig', `--data-dir=${dir}/never-served`, '--user=a']);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /admin.kubeconfig not found: start the server with --data-dir .*never-served first/,
    );
    const half = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=a',
      '--client-ca-key-file=k',
    ]);
    assert.equal(half.code, 2);
    assert.match(half.stderr, /--client-ca-file and --client-ca-key-file must be given together/);
    const wrongKey = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=a',
      `--client-ca-file=${s.dataDir}/pki/ca.crt`,
      `--client-ca-key-file=${s.dataDir}/pki/apiserver.key`,
    ]);
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /--client-ca-key-file .*apiserver.key is not the key of --client-ca-file/);
  });

  it('keeps keys and tokens 0600 in 0700 directories', async () => {
    assert.equal(await mode(path.join(s.dataDir, 'pki')), 0o700);
    for (const file of ['pki/ca.key', 'pki/apiserver.key', 'admin.token', 'admin.kubeconfig']) {
      assert.equal(await mode(path.join(s.dataDir, file)), 0o600, file);
    }
  });

  it('a data dir of an older pgkube (no pki/ca.key) starts with a new CA, and says so', async () => {
    const oldCa = await readFile(path.join(s.dataDir, 'pki', 'ca.crt'), 'utf8');
    await s.stop();
    await unlink(path.join(s.dataDir, 'pki', 'ca.key'));
    await s.restart({ dataDir: s.dataDir });
    assert.match(s.output(), /pki had a CA without its key .* a new CA and serving certificate were made/);
    assert.notEqual(await readFile(path.join(s.dataDir, 'pki', 'ca.crt'), 'utf8'), oldCa);
    assert.equal(await mode(path.join(s.dataDir, 'pki', 'ca.key')), 0o600);
    // admin.kubeconfig is written anew with the new CA; a kubeconfig made before trusts the old one
    assert.equal((await run(s.kubeconfig, ['get', 'namespaces', '-o', 'name'])).code, 0);
    // (the server has a new port: point the old kubeconfig there)
    const old = parse(await readFile(alice, 'utf8'));
    old.clusters[0].cluster.server = s.url;
    await writeFile(alice, stringify(old), { mode: 0o600 });
    const stale = await run(alice, ['get', 'configmaps']);
    assert.notEqual(stale.code, 0);
    assert.match(stale.stderr, /certificate signed by unknown authority/);
  });

  it('with --client-ca-file the server takes that CA only; the command signs with it and its key', async () => {
    const own = await testCa('own-client-ca');
    const caFile = path.join(dir, 'own-ca.crt');
    const keyFile = path.join(dir, 'own-ca.key');
    await writeFile(caFile, own.cert);
    await writeFile(keyFile, own.key, { mode: 0o600 });
    await s.restart({ dataDir: s.dataDir, args: [`--client-ca-file=${caFile}`] });

    const dave = path.join(dir, 'dave.kubeconfig');
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=dave',
      `--client-ca-file=${caFile}`,
      `--client-ca-key-file=${keyFile}`,
      `--out=${dave}`,
    ]);
    assert.equal(made.code, 0, made.stderr);
    const listed = await run(dave, ['get', 'configmaps', '-n', 'default', '-o', 'name']);
    assert.equal(listed.code, 0, listed.stderr);

    // signed by the data dir's CA: no longer a user
    const erin = path.join(dir, 'erin.kubeconfig');
    assert.equal(
      (await runPgkube(['kubeconfig', `--data-dir=${s.dataDir}`, '--user=erin', `--out=${erin}`])).code,
      0,
    );
    const refused = await run(erin, ['get', 'configmaps', '-n', 'default']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Unauthorized/);

    // kube keeps the CAs published before (until they expire) beside the new one
    const trust = await s.request(
      'GET',
      '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication',
    );
    const published = trust.json.data['client-ca-file'] as string;
    assert.ok(published.includes(own.cert.trim()), published);
    assert.ok(published.includes((await readFile(path.join(s.dataDir, 'pki', 'ca.crt'), 'utf8')).trim()));
  });
});
