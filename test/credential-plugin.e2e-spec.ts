/**
 * `pgkube credential` as kubectl's exec plugin: kubectl runs it from a kubeconfig `exec` entry, gets a
 * service-account token, uses it for every request of one process (one run of the plugin), and runs it again
 * after a 401 (the account recreated with a new uid: lookup revokes the old token). Identity is read back with
 * `kubectl auth whoami` (SelfSubjectReview).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { kubectl, kubectlBinary } from './support/kubectl.js';
import { everything, grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const mainJs = fileURLToPath(new URL('../src/main.js', import.meta.url));

/** A kubeconfig whose user runs `pgkube credential` (through sh, which counts the runs in `countFile`). */
async function execKubeconfig(admin: string, countFile: string, account: string, version: string) {
  const text = await readFile(admin, 'utf8');
  const server = /server: (\S+)/.exec(text)![1];
  const ca = /certificate-authority-data: (\S+)/.exec(text)![1];
  const script = `echo run >> "${countFile}"; exec "${process.execPath}" "${mainJs}" credential --kubeconfig "${admin}" --service-account ${account}`;
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    '- name: robot',
    '  user:',
    '    exec:',
    `      apiVersion: ${version}`,
    '      command: sh',
    `      args: ["-c", ${JSON.stringify(script)}]`,
    '      interactiveMode: Never',
    'contexts:',
    '- name: c',
    '  context: {cluster: c, user: robot, namespace: default}',
    'current-context: c',
    '',
  ].join('\n');
}

const runs = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('pgkube credential (exec plugin)', () => {
  const s = useServer();

  const admin = async (args: string[]) => {
    const r = await kubectl(args, { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };

  for (const version of ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']) {
    it(`kubectl runs it (${version}) and is the service account, one run for a whole command`, async () => {
      const name = `robot-${version.endsWith('v1') ? 'v1' : 'beta'}`;
      await admin(['create', 'serviceaccount', name, '-n', 'default']);
      const count = path.join(s.dataDir, `${name}.runs`);
      const config = path.join(s.dataDir, `${name}.kubeconfig`);
      await writeFile(config, await execKubeconfig(s.kubeconfig, count, `default/${name}`, version));
      const who = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: config });
      assert.equal(who.code, 0, who.stderr);
      const user = JSON.parse(who.stdout).status.userInfo;
      assert.equal(user.username, `system:serviceaccount:default:${name}`);
      assert.ok(user.groups.includes('system:serviceaccounts:default'));
      assert.equal(await runs(count), 1);
      // discovery and three lists in one process: the token is cached, the plugin not run again
      const many = await kubectl(['get', 'configmaps,secrets,serviceaccounts', '-o', 'name'], {
        kubeconfig: config,
      });
      assert.equal(many.code, 0, many.stderr);
      assert.equal(await runs(count), 2);
    });
  }

  // this file proves who a credential makes the caller; what that caller may do is not its subject
  before(() => grant(s, 'authenticated-all', [group('system:authenticated')], everything));

  it('runs it again after a 401', async () => {
    await admin(['create', 'serviceaccount', 'rotating', '-n', 'default']);
    const count = path.join(s.dataDir, 'rotating.runs');
    const config = path.join(s.dataDir, 'rotating.kubeconfig');
    await writeFile(
      config,
      await execKubeconfig(s.kubeconfig, count, 'default/rotating', 'client.authentication.k8s.io/v1'),
    );
    const proxy = spawn(await kubectlBinary(), ['proxy', '--port=0', `--kubeconfig=${config}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        proxy.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /Starting to serve on 127\.0\.0\.1:(\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        proxy.once('exit', (code) => reject(new Error(`kubectl proxy exited ${code}`)));
      });
      const get = async () =>
        (await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/default/configmaps`)).status;
      assert.equal(await get(), 200);
      assert.equal(await get(), 200);
      assert.equal(await runs(count), 1, 'one run for both requests');
      // a new account of the same name: the old token's uid no longer matches (lookup), so it is refused
      await admin(['delete', 'serviceaccount', 'rotating', '-n', 'default']);
      await admin(['create', 'serviceaccount', 'rotating', '-n', 'default']);
      let status = await get();
      for (let i = 0; status !== 200 && i < 5; i++) status = await get();
      assert.equal(status, 200, 'a request after the 401 succeeds with a new token');
      assert.equal(await runs(count), 2, 'the plugin ran once more, after the 401');
    } finally {
      proxy.kill();
    }
  });

  it('refuses to run without a credential in its kubeconfig, and names a bad --service-account', async () => {
    const empty = path.join(s.dataDir, 'empty.kubeconfig');
    const text = await readFile(s.kubeconfig, 'utf8');
    await writeFile(empty, text.replace(/\n\s+token: \S+/, ''));
    const run = (args: string[]) =>
      new Promise<{ code: number; stderr: string; stdout: string }>((resolve) => {
        const p = spawn(process.execPath, [mainJs, 'credential', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        p.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
    const none = await run(['--kubeconfig', empty, '--service-account', 'default/default']);
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /holds no credential, and pgkube credential never prompts/);
    assert.equal(none.stdout, '');
    const bad = await run(['--kubeconfig', s.kubeconfig, '--service-account', 'default']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--service-account must be NAMESPACE\/NAME/);
  });
});
