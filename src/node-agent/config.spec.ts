/**
 * The node agent's configuration: v1beta1 defaults, the --config file, --config-dir drop-ins in lexical order,
 * flags over both, and what the kubelet refuses or only warns about.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadNodeAgentConfig, type NodeAgentConfig } from './config.js';

const header = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

async function dir(files: Record<string, string>): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'node-agent-config-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(d, name)), { recursive: true });
    await writeFile(path.join(d, name), text);
  }
  return d;
}

async function load(argv: string[]): Promise<NodeAgentConfig> {
  const parsed = await loadNodeAgentConfig(argv);
  assert.equal(parsed.help, false);
  return (parsed as { config: NodeAgentConfig }).config;
}

describe('node-agent configuration', () => {
  it("has v1beta1's defaults without any file (not the kubelet's legacy flag defaults)", async () => {
    const c = await load([]);
    assert.deepEqual(c.kubelet, {
      address: '0.0.0.0',
      port: 10250,
      tlsCertFile: undefined,
      tlsPrivateKeyFile: undefined,
      authentication: {
        anonymous: false,
        webhook: true,
        webhookCacheTtlMs: 120_000,
        clientCaFile: undefined,
      },
      authorization: { mode: 'Webhook', cacheAuthorizedTtlMs: 300_000, cacheUnauthorizedTtlMs: 30_000 },
      nodeStatusUpdateFrequencyMs: 10_000,
      nodeStatusReportFrequencyMs: 300_000,
      nodeLeaseDurationSeconds: 40,
      runtimeRequestTimeoutMs: 120_000,
      maxPods: 110,
      containerRuntimeEndpoint: undefined,
    });
    assert.equal(c.rootDir, '/var/lib/kubelet');
    assert.equal(c.certDir, '/var/lib/kubelet/pki');
    assert.equal(c.nodeName, hostname().toLowerCase());
    assert.equal(c.featureGates.enabled('ContainerCheckpoint'), true);
    assert.deepEqual(c.warnings, []);
  });

  it('reads a YAML file; zero values take the default', async () => {
    const d = await dir({
      'k.yaml': `${header}port: 0\naddress: 127.0.0.1\nmaxPods: 30\nnodeLeaseDurationSeconds: 20\nauthentication:\n  anonymous:\n    enabled: true\n  webhook:\n    cacheTTL: 1m30s\n  x509:\n    clientCAFile: /ca.pem\nauthorization:\n  mode: AlwaysAllow\nfeatureGates:\n  ContainerCheckpoint: false\ncgroupDriver: systemd\nclusterDNS: [10.0.0.10]\n`,
    });
    const c = await load([`--config=${path.join(d, 'k.yaml')}`, '--hostname-override', ' Node-A ']);
    assert.equal(c.kubelet.port, 10250);
    assert.equal(c.kubelet.address, '127.0.0.1');
    assert.equal(c.kubelet.maxPods, 30);
    assert.equal(c.kubelet.nodeLeaseDurationSeconds, 20);
    assert.equal(c.kubelet.authentication.anonymous, true);
    assert.equal(c.kubelet.authentication.webhookCacheTtlMs, 90_000);
    assert.equal(c.kubelet.authentication.clientCaFile, '/ca.pem');
    assert.equal(c.kubelet.authorization.mode, 'AlwaysAllow');
    assert.equal(c.featureGates.enabled('ContainerCheckpoint'), false);
    assert.equal(c.nodeName, 'node-a');
    // the kubelet's own fields the agent does not use: accepted, no warning
    assert.deepEqual(c.warnings, []);
  });

  it('reads JSON; an update frequency set alone is also the report frequency', async () => {
    const d = await dir({
      'k.json': JSON.stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        nodeStatusUpdateFrequency: '20s',
      }),
    });
    const c = await load([`--config=${path.join(d, 'k.json')}`]);
    assert.equal(c.kubelet.nodeStatusUpdateFrequencyMs, 20_000);
    assert.equal(c.kubelet.nodeStatusReportFrequencyMs, 20_000);
  });

  it('warns about fields v1beta1 does not have, naming the field and the file (lenient v1beta1 decoding)', async () => {
    const d = await dir({
      'k.yaml': `${header}bogus: 1\nauthentication:\n  anonymous:\n    enabeld: true\n`,
    });
    const file = path.join(d, 'k.yaml');
    const c = await load([`--config=${file}`]);
    assert.equal(c.warnings.length, 2);
    assert.match(c.warnings[0], new RegExp(`^${file}: .*unknown field "bogus"`));
    assert.match(c.warnings[1], new RegExp(`^${file}: .*unknown field "authentication.anonymous.enabeld"`));
    assert.equal(c.kubelet.authentication.anonymous, false);
  });

  it('refuses values of the wrong type, naming the field and the file', async () => {
    for (const [body, field] of [
      ['port: "10250"', 'port'],
      ['maxPods: 1.5', 'maxPods'],
      ['nodeStatusUpdateFrequency: 10', 'nodeStatusUpdateFrequency'],
      ['nodeStatusUpdateFrequency: ten', 'nodeStatusUpdateFrequency'],
      ['authentication: {anonymous: {enabled: "yes"}}', 'authentication.anonymous.enabled'],
      ['featureGates: {ContainerCheckpoint: 1}', 'featureGates\\[ContainerCheckpoint\\]'],
    ]) {
      const d = await dir({ 'k.yaml': `${header}${body}\n` });
      const file = path.join(d, 'k.yaml');
      await assert.rejects(load([`--config=${file}`]), (e: Error) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, new RegExp(`${file}: ${field}: `));
        return true;
      });
    }
  });

  it('refuses a file without, or with another, apiVersion/kind', async () => {
    const d = await dir({ 'a.yaml': 'port: 1\n', 'b.yaml': 'apiVersion: v1\nkind: ConfigMap\n' });
    await assert.rejects(load([`--config=${path.join(d, 'a.yaml')}`]), /a\.yaml: no apiVersion\/kind/);
    await assert.rejects(load([`--config=${path.join(d, 'b.yaml')}`]), /b\.yaml: unknown apiVersion\/kind/);
  });

  it('merges *.conf drop-ins over the file in lexical order, subdirectories included, other files skipped', async () => {
    const d = await dir({
      'main.yaml': `${header}port: 20250\naddress: 192.168.0.1\nauthorization:\n  mode: Webhook\n  webhook:\n    cacheAuthorizedTTL: 5m\n    cacheUnauthorizedTTL: 30s\nfeatureGates:\n  ContainerCheckpoint: false\n`,
      'drop/20-b.conf': `${header}address: 192.168.0.8\nauthorization:\n  webhook:\n    cacheUnauthorizedTTL: 45s\nmaxPods: 50\n`,
      'drop/10-a.conf': `${header}address: 192.168.0.7\nmaxPods: 40\nfeatureGates:\n  WatchList: false\n`,
      'drop/30-c/x.conf': `${header}maxPods: 60\n`,
      'drop/99-ignored.yaml': `${header}maxPods: 99\n`,
    });
    const c = await load([`--config=${path.join(d, 'main.yaml')}`, `--config-dir=${path.join(d, 'drop')}`]);
    assert.equal(c.kubelet.port, 20250);
    assert.equal(c.kubelet.address, '192.168.0.8');
    assert.equal(c.kubelet.maxPods, 60);
    assert.equal(c.kubelet.authorization.mode, 'Webhook');
    assert.equal(c.kubelet.authorization.cacheAuthorizedTtlMs, 300_000);
    assert.equal(c.kubelet.authorization.cacheUnauthorizedTtlMs, 45_000);
    assert.equal(c.featureGates.enabled('ContainerCheckpoint'), false);
    assert.equal(c.featureGates.enabled('WatchList'), false);
  });

  it('needs apiVersion/kind in every drop-in, and names the drop-in in its errors', async () => {
    const d = await dir({ 'drop/10.conf': 'maxPods: 5\n' });
    await assert.rejects(load([`--config-dir=${path.join(d, 'drop')}`]), /10\.conf: no apiVersion\/kind/);
    const e = await dir({ 'drop/10.conf': `${header}maxPods: many\n` });
    await assert.rejects(load([`--config-dir=${path.join(e, 'drop')}`]), /10\.conf: maxPods: /);
  });

  it('flags given win over the file and the drop-ins; feature gates per gate', async () => {
    const d = await dir({
      'main.yaml': `${header}port: 20250\nmaxPods: 10\ntlsCertFile: /file.crt\ntlsPrivateKeyFile: /file.key\nfeatureGates:\n  ContainerCheckpoint: false\n  WatchList: false\n`,
      'drop/10.conf': `${header}port: 20251\nauthentication:\n  anonymous:\n    enabled: true\n`,
    });
    const c = await load([
      `--config=${path.join(d, 'main.yaml')}`,
      `--config-dir=${path.join(d, 'drop')}`,
      '--port=30250',
      '--anonymous-auth=false',
      '--feature-gates=ContainerCheckpoint=true',
      '--tls-cert-file',
      '/flag.crt',
      '--tls-private-key-file=/flag.key',
      '--client-ca-file=/flag-ca.crt',
    ]);
    assert.equal(c.kubelet.port, 30250);
    assert.equal(c.kubelet.maxPods, 10, 'a field no flag names keeps the file value');
    assert.equal(c.kubelet.authentication.anonymous, false);
    assert.equal(c.kubelet.tlsCertFile, '/flag.crt');
    assert.equal(c.kubelet.tlsPrivateKeyFile, '/flag.key');
    assert.equal(c.kubelet.authentication.clientCaFile, '/flag-ca.crt');
    assert.equal(c.featureGates.enabled('ContainerCheckpoint'), true);
    assert.equal(c.featureGates.enabled('WatchList'), false, "the file's other gates stay");
  });

  it('reads the command-line-only flags', async () => {
    const c = await load([
      '--kubeconfig=/k',
      '--bootstrap-kubeconfig=/b',
      '--root_dir=/r',
      '--node-ip=10.0.0.5,fd00::5',
      '--container-runtime-endpoint=unix:///run/crio/crio.sock',
    ]);
    assert.equal(c.kubeconfig, '/k');
    assert.equal(c.bootstrapKubeconfig, '/b');
    assert.equal(c.rootDir, '/r');
    assert.equal(c.certDir, '/r/pki');
    assert.deepEqual(c.nodeIps, ['10.0.0.5', 'fd00::5']);
    assert.equal(c.kubelet.containerRuntimeEndpoint, 'unix:///run/crio/crio.sock');
    assert.deepEqual(await loadNodeAgentConfig(['--help']), { help: true });
  });

  it('refuses bad flags and invalid values', async () => {
    for (const [argv, message] of [
      [['--nope=1'], /unknown flag: --nope/],
      [['--port=x'], /"--port" flag/],
      [['--port=70000'], /port \(--port\) 70000 must be between 1 and 65535/],
      [['--node-ip=10.0.0.1,10.0.0.2'], /at most one IPv4 and one IPv6/],
      [['--feature-gates=ContainerCheckpoint'], /missing bool value/],
      [['--feature-gates=NoSuchGate=true'], /unrecognized feature gate: NoSuchGate/],
      [['--authorization-mode=RBAC'], /unknown authorization mode "RBAC"/],
      [['--tls-cert-file=/c'], /go together/],
      [['--hostname-override= '], /empty hostname is invalid/],
      [['--kubeconfig'], /flag needs an argument/],
    ] as const) {
      await assert.rejects(load([...argv]), (e: Error) => {
        assert.ok(e instanceof ConfigError, `${argv.join(' ')}: ${e.message}`);
        assert.match(e.message, message);
        return true;
      });
    }
  });
});
