/**
 * The node agent's checkpoint endpoint against a real pgkube (TokenReview and SubjectAccessReview answered by its
 * authenticators and RBAC) and an in-process fake CRI runtime on a unix socket: who gets 401, 403 and 200, the
 * runtime's answers mapped to 200/404/500, the feature gate, and the archive's name, place and modes.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PodOnNode, PodsOnNode } from '../modules/checkpoint/index.js';
import { hostConnection } from '../modules/authentication/index.js';
import { loadNodeAgentConfig, type NodeAgentConfig } from '../src/node-agent/config.js';
import { startAgentServer, type AgentServer } from '../src/node-agent/server.js';
import { clientCertificate, testCa, type TestCa } from './support/certificates.js';
import { eventually } from './support/eventually.js';
import { startFakeCri, type FakeCri } from './support/fake-cri.js';
import { grant, group, user } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const NODE = 'node-a';

/** the Pods on the node: test data the agent's main loop would keep */
const pods: PodsOnNode = {
  find(namespace, name): PodOnNode | undefined {
    if (namespace !== 'default' || name !== 'web') return undefined;
    return {
      uid: 'uid-web',
      namespace,
      name,
      containers: [
        {
          name: 'app',
          id: 'cid-app',
          image: 'nginx:1.27',
          state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
        },
        { name: 'setup', id: 'cid-setup' },
        { name: 'pending' },
      ],
    };
  },
};

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'checkpoint-e2e-'));
}

interface Caller {
  token?: string;
  cert?: { cert: string; key: string };
}

interface Reply {
  status: number;
  type?: string;
  body: string;
}

function call(agent: AgentServer, method: string, p: string, who: Caller = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${agent.url}${p}`,
      {
        method,
        ca: agent.servingCert,
        servername: NODE,
        cert: who.cert?.cert,
        key: who.cert?.key,
        headers: who.token ? { authorization: `Bearer ${who.token}` } : {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('node agent checkpoint endpoint', () => {
  let tokens: string;
  const s = useServer(async () => {
    tokens = path.join(await tempDir(), 'tokens.csv');
    await writeFile(
      tokens,
      'alice-token,alice,uid-alice\nbob-token,bob,uid-bob\nerin-token,erin,uid-erin,"checkpointers"\n',
    );
    return { args: [`--token-auth-file=${tokens}`] };
  });

  let clientCa: TestCa;
  let clientCaFile: string;
  let carol: { cert: string; key: string };
  let dave: { cert: string; key: string };
  let stranger: { cert: string; key: string };
  let cri: FakeCri;
  const agents: AgentServer[] = [];

  /** An agent in-process on a free loopback port, configured by a KubeletConfiguration file and flags. */
  async function startAgent(
    config: Record<string, unknown>,
    flags: string[] = [],
  ): Promise<{ agent: AgentServer; config: NodeAgentConfig }> {
    const dir = await tempDir();
    const file = path.join(dir, 'kubelet.yaml');
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        ...config,
      }),
    );
    const parsed = await loadNodeAgentConfig([
      `--config=${file}`,
      `--root-dir=${path.join(dir, 'root')}`,
      `--hostname-override=${NODE}`,
      `--kubeconfig=${s.kubeconfig}`,
      `--client-ca-file=${clientCaFile}`,
      ...flags,
    ]);
    assert.equal(parsed.help, false);
    const c = (parsed as { config: NodeAgentConfig }).config;
    const agent = await startAgentServer(c, {
      pods,
      apiServer: await hostConnection(s.kubeconfig, '--kubeconfig'),
      listen: { host: '127.0.0.1', port: 0 },
      log: () => undefined,
    });
    agents.push(agent);
    return { agent, config: c };
  }

  let criAgent: { agent: AgentServer; config: NodeAgentConfig };

  before(async () => {
    clientCa = await testCa('agent-client-ca');
    clientCaFile = path.join(await tempDir(), 'client-ca.crt');
    await writeFile(clientCaFile, clientCa.cert);
    carol = await clientCertificate(clientCa, { cn: 'carol', groups: ['checkpointers'] });
    dave = await clientCertificate(clientCa, { cn: 'dave' });
    stranger = await clientCertificate(await testCa('someone-else'), {
      cn: 'carol',
      groups: ['checkpointers'],
    });
    await grant(
      s,
      'checkpointers',
      [group('checkpointers')],
      [{ verbs: ['create'], apiGroups: [''], resources: ['nodes/checkpoint'] }],
    );
    cri = await startFakeCri();
    criAgent = await startAgent({
      containerRuntimeEndpoint: cri.endpoint,
      authorization: { webhook: { cacheUnauthorizedTTL: '200ms' } },
    });
  });

  after(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await cri?.close();
  });

  const checkpointPath = '/checkpoint/default/web/app';

  it('answers 401 Unauthorized to a caller without credentials while anonymous access is off (the default)', async () => {
    const r = await call(criAgent.agent, 'POST', checkpointPath);
    assert.equal(r.status, 401);
    assert.equal(r.body, 'Unauthorized');
    assert.equal(cri.requests.length, 0);
  });

  it('answers 401 to a token the API server does not know, and to a certificate of another CA', async () => {
    assert.equal(
      (await call(criAgent.agent, 'POST', checkpointPath, { token: 'no-such-token' })).status,
      401,
    );
    assert.equal((await call(criAgent.agent, 'POST', checkpointPath, { cert: stranger })).status, 401);
  });

  it('answers 403 to a token user without RBAC for nodes/checkpoint, then 200 once a ClusterRoleBinding grants it', async () => {
    const denied = await call(criAgent.agent, 'POST', checkpointPath, { token: 'alice-token' });
    assert.equal(denied.status, 403);
    assert.equal(denied.body, 'Forbidden (user=alice, verb=create, resource=nodes, subresource=checkpoint)');
    await grant(
      s,
      'alice-checkpoints',
      [user('alice')],
      [{ verbs: ['create'], apiGroups: [''], resources: ['nodes/checkpoint'], resourceNames: [NODE] }],
    );
    // the denial is kept for cacheUnauthorizedTTL (200ms here)
    let last: Reply | undefined;
    await eventually(async () => {
      last = await call(criAgent.agent, 'POST', checkpointPath, { token: 'alice-token' });
      return last.status === 200;
    }, 'alice allowed');
    assert.match(last!.body, /^\{"items":\[".*"\]\}$/);
  });

  it('lets a client-certificate caller in as CN with O as groups: 200 by its group, 403 for another user', async () => {
    assert.equal((await call(criAgent.agent, 'POST', checkpointPath, { cert: carol })).status, 200);
    const r = await call(criAgent.agent, 'POST', checkpointPath, { cert: dave });
    assert.equal(r.status, 403);
    assert.equal(r.body, 'Forbidden (user=dave, verb=create, resource=nodes, subresource=checkpoint)');
  });

  it('has the runtime write the archive where the kubelet names it, 0600 in a 0700 directory', async () => {
    cri.mode = 'ok';
    cri.requests.length = 0;
    const before = Date.now();
    const r = await call(criAgent.agent, 'POST', checkpointPath, { token: 'erin-token' });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.type, 'application/json');
    const items = JSON.parse(r.body).items as string[];
    assert.equal(items.length, 1);
    const archive = items[0];
    const dir = path.join(criAgent.config.rootDir, 'checkpoints');
    assert.equal(path.dirname(archive), dir);
    const m = /^checkpoint-web_default-app-(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d))\.tar$/.exec(
      path.basename(archive),
    );
    assert.ok(m, `archive name ${path.basename(archive)}`);
    assert.ok(Math.abs(Date.parse(m[1]) - before) < 5000, 'the name carries the time of the checkpoint');
    assert.equal((await stat(archive)).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal(await readFile(archive, 'utf8'), 'criu images');
    // the CRI request: the container's runtime id, the location, the CRI default timeout (runtimeRequestTimeout)
    assert.deepEqual(
      cri.requests.map(({ containerId, location, timeout }) => ({ containerId, location, timeout })),
      [{ containerId: 'cid-app', location: archive, timeout: 120 }],
    );
    assert.match(cri.requests[0].grpcTimeout ?? '', /^120000m$/);
  });

  it('passes a longer ?timeout= to the runtime (the last one given), and checkpoints init containers', async () => {
    cri.mode = 'ok';
    cri.requests.length = 0;
    const r = await call(criAgent.agent, 'POST', '/checkpoint/default/web/setup?timeout=30&timeout=300', {
      token: 'erin-token',
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(cri.requests[0].containerId, 'cid-setup');
    assert.equal(cri.requests[0].timeout, 300);
  });

  it('answers 500 saying so when the runtime does not support checkpointing (Unimplemented)', async () => {
    cri.mode = 'unimplemented';
    const r = await call(criAgent.agent, 'POST', checkpointPath, { token: 'erin-token' });
    assert.equal(r.status, 500);
    assert.match(
      r.body,
      /^checkpointing of default\/web\/app failed \(the container runtime does not support checkpointing: rpc error: code = Unimplemented desc = method CheckpointContainer not implemented\)$/,
    );
  });

  it('answers 404 when the runtime does not find the container (NotFound)', async () => {
    cri.mode = 'not-found';
    const r = await call(criAgent.agent, 'POST', checkpointPath, { token: 'erin-token' });
    assert.equal(r.status, 404);
    assert.match(r.body, /code = NotFound desc = container "cid-app" not found/);
    cri.mode = 'ok';
  });

  it('answers 404 for an unknown pod or container, and for a timeout that is no integer (as the kubelet)', async () => {
    const who = { token: 'erin-token' };
    cri.requests.length = 0;
    const pod = await call(criAgent.agent, 'POST', '/checkpoint/default/nope/app', who);
    assert.deepEqual([pod.status, pod.body], [404, 'pod does not exist']);
    const ns = await call(criAgent.agent, 'POST', '/checkpoint/other/web/app', who);
    assert.deepEqual([ns.status, ns.body], [404, 'pod does not exist']);
    const container = await call(criAgent.agent, 'POST', '/checkpoint/default/web/nope', who);
    assert.deepEqual([container.status, container.body], [404, 'container nope does not exist']);
    const notStarted = await call(criAgent.agent, 'POST', '/checkpoint/default/web/pending', who);
    assert.equal(notStarted.status, 404);
    const timeout = await call(criAgent.agent, 'POST', `${checkpointPath}?timeout=soon`, who);
    assert.deepEqual([timeout.status, timeout.body], [404, 'cannot parse value of timeout parameter']);
    const negative = await call(criAgent.agent, 'POST', `${checkpointPath}?timeout=-1`, who);
    assert.equal(negative.status, 500);
    assert.equal(cri.requests.length, 0, 'the runtime is not asked');
    const get = await call(criAgent.agent, 'GET', checkpointPath, { token: 'erin-token' });
    // GET maps to verb get, which erin may not do
    assert.deepEqual(
      [get.status, get.body],
      [403, 'Forbidden (user=erin, verb=get, resource=nodes, subresource=checkpoint)'],
    );
  });

  it('answers 500 when the runtime cannot be reached', async () => {
    const { agent } = await startAgent({
      containerRuntimeEndpoint: `unix://${path.join(await tempDir(), 'none.sock')}`,
    });
    const r = await call(agent, 'POST', checkpointPath, { token: 'erin-token' });
    assert.equal(r.status, 500);
    assert.match(r.body, /^checkpointing of default\/web\/app failed \(rpc error: code = Unavailable/);
  });

  it('answers 404 with the ContainerCheckpoint gate off, after authentication', async () => {
    const { agent } = await startAgent({ featureGates: { ContainerCheckpoint: false } });
    assert.equal((await call(agent, 'POST', checkpointPath)).status, 401);
    const r = await call(agent, 'POST', checkpointPath, { token: 'erin-token' });
    assert.equal(r.status, 404);
  });

  it('without a runtime endpoint, writes the simulated runtime tar of the container state; anonymous callers when enabled', async () => {
    const { agent, config } = await startAgent({ authentication: { anonymous: { enabled: true } } });
    const anonymous = await call(agent, 'POST', checkpointPath);
    assert.deepEqual(
      [anonymous.status, anonymous.body],
      [403, 'Forbidden (user=system:anonymous, verb=create, resource=nodes, subresource=checkpoint)'],
    );
    const r = await call(agent, 'POST', checkpointPath, { token: s.token });
    assert.equal(r.status, 200, r.body);
    const archive = JSON.parse(r.body).items[0] as string;
    assert.equal(path.dirname(archive), path.join(config.rootDir, 'checkpoints'));
    assert.equal((await stat(archive)).mode & 0o777, 0o600);
    const tar = await readFile(archive);
    assert.equal(tar.length % 512, 0);
    assert.equal(tar.subarray(257, 263).toString('latin1'), 'ustar\0');
    assert.equal(tar.subarray(0, 14).toString(), 'container.json');
    const size = parseInt(tar.subarray(124, 135).toString(), 8);
    const state = JSON.parse(tar.subarray(512, 512 + size).toString());
    assert.deepEqual(state.pod, { namespace: 'default', name: 'web', uid: 'uid-web' });
    assert.deepEqual(state.container, { name: 'app', id: 'cid-app', image: 'nginx:1.27' });
    assert.deepEqual(state.state, { running: { startedAt: '2025-01-01T00:00:00Z' } });
    // the header checksum: the sum of the header's bytes with the checksum field as spaces
    const header = Buffer.from(tar.subarray(0, 512));
    const recorded = parseInt(header.subarray(148, 154).toString(), 8);
    header.fill(' ', 148, 156);
    assert.equal(
      recorded,
      header.reduce((a, b) => a + b, 0),
    );
  });

  it('in AlwaysAllow mode lets any authenticated caller checkpoint', async () => {
    const { agent } = await startAgent({ authorization: { mode: 'AlwaysAllow' } });
    assert.equal((await call(agent, 'POST', checkpointPath, { token: 'bob-token' })).status, 200);
    assert.equal((await call(agent, 'POST', checkpointPath)).status, 401);
  });
});
