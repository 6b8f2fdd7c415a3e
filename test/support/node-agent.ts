/**
 * The real `pgkube node-agent` as a child process, for a server started by server.ts: a node identity's
 * client-certificate kubeconfig (system:node:<name> in system:nodes, from the server's data dir CA), a root dir,
 * and a KubeletConfiguration with short heartbeats so tests see leases and statuses within seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './aggregation.js';
import { runPgkube, type TestServer } from './server.js';

const mainJs = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface NodeAgentProcess {
  name: string;
  rootDir: string;
  kubeconfig: string;
  output: () => string;
  /** SIGTERM (a clean stop) or SIGKILL (the node dies); resolves once the process is gone */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export interface NodeAgentOptions {
  /** KubeletConfiguration fields beside the short heartbeats */
  config?: Record<string, unknown>;
  /** a root dir to reuse (a restarted agent) */
  rootDir?: string;
  kubeconfig?: string;
}

export async function nodeKubeconfig(server: TestServer, name: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-node-')), 'kubeconfig');
  const r = await runPgkube([
    'kubeconfig',
    `--data-dir=${server.dataDir}`,
    `--user=system:node:${name}`,
    '--group=system:nodes',
    `--out=${file}`,
  ]);
  if (r.code !== 0) throw new Error(`pgkube kubeconfig: ${r.stderr}`);
  return file;
}

export async function startNodeAgent(
  server: TestServer,
  name: string,
  options: NodeAgentOptions = {},
): Promise<NodeAgentProcess> {
  const rootDir = options.rootDir ?? (await mkdtemp(path.join(tmpdir(), 'pgkube-agent-')));
  await mkdir(path.join(rootDir, 'seccomp'), { recursive: true });
  const kubeconfig = options.kubeconfig ?? (await nodeKubeconfig(server, name));
  const config = path.join(rootDir, 'kubelet.yaml');
  await writeFile(
    config,
    JSON.stringify({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      address: '127.0.0.1',
      port: await freePort(),
      // a Lease renewed every second, a status computed every second
      nodeLeaseDurationSeconds: 4,
      nodeStatusUpdateFrequency: '1s',
      ...options.config,
    }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [
      mainJs,
      'node-agent',
      `--kubeconfig=${kubeconfig}`,
      `--hostname-override=${name}`,
      `--root-dir=${rootDir}`,
      `--config=${config}`,
      '--node-ip=127.0.0.1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`node agent ${name} not registered in 30 s:\n${output}`)),
      30_000,
    );
    const check = () => {
      if (/: registered/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node agent ${name} exited with ${code}:\n${output}`));
    });
  });
  return {
    name,
    rootDir,
    kubeconfig,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill(signal);
      await gone;
    },
  };
}
