/**
 * Starts the real server (`node <out>/src/main.js serve`, from the build this file is part of: dist-test/ for
 * the tests, dist/ for bench) as a child process and talks HTTPS to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const mainJs = fileURLToPath(new URL('../../src/main.js', import.meta.url));
/** The server entry that also serves the test-only kinds of test-apis.ts. */
export const testApisEntry = fileURLToPath(new URL('./test-apis-main.js', import.meta.url));

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface RequestOptions {
  body?: unknown;
  /** raw body text (sent as is) */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** bearer token; default the admin token, null for none */
  token?: string | null;
}

/** What a client needs to reach a test server. */
export interface ServerClient {
  url: string;
  ca: string;
  token: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
}

export interface TestServer extends ServerClient {
  pid: number;
  dataDir: string;
  kubeconfig: string;
  output: () => string;
  /** SIGTERM, then the process's exit code once it is gone */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** unset: the server starts its own embedded PostgreSQL in the data dir */
  databaseUrl?: string;
  /** reuse a data dir (restart); default a new temp dir */
  dataDir?: string;
  args?: string[];
  /** the script to run instead of src/main.js (e.g. testApisEntry) */
  entry?: string;
}

/** Requests to a server at `url` trusting `ca`, as the admin `token` unless told otherwise. */
export function httpsClient(url: string, ca: string, token: string): ServerClient['request'] {
  return (method: string, p: string, o: RequestOptions = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...o.headers };
      const tok = o.token === undefined ? token : o.token;
      if (tok) headers.authorization = `Bearer ${tok}`;
      let payload: string | Buffer | undefined = o.raw;
      if (o.body !== undefined) {
        payload = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      const req = httpsRequest(new URL(p, url), { method, headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
}

/** Runs a `pgkube` command that ends by itself (e.g. `kubeconfig`); resolves with its exit code and output. */
export async function runPgkube(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [mainJs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  // 'close', not 'exit': stdout is read to its end
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Runs `serve` with flags expected to stop it at start; resolves with its exit code and output. */
export async function serverExit(
  args: string[],
  entry = mainJs,
): Promise<{ code: number | null; output: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-test-'));
  const child = spawn(
    process.execPath,
    [entry, 'serve', `--data-dir=${dataDir}`, '--secure-port=0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: '' },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

export async function startServer(options: StartOptions): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'pgkube-test-')));
  // an embedded PostgreSQL runs as its own OS user when we are root: it must reach the data dir
  await chmod(dataDir, 0o755);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.PGKUBE_TEST_NODE_ARGS ?? '').split(' ').filter(Boolean),
      options.entry ?? mainJs,
      'serve',
      `--data-dir=${dataDir}`,
      ...(options.databaseUrl ? [`--database-url=${options.databaseUrl}`] : []),
      '--secure-port=0',
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' } },
  );
  let output = '';
  const ready = new Promise<{ url: string; kubeconfig: string }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /serving on (https:\/\/\S+) \(kubeconfig: ([^)]+)\)/.exec(output);
      if (m) {
        clearTimeout(notReady);
        resolve({ url: m[1], kubeconfig: m[2] });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    const notReady = setTimeout(() => {
      // a server left running would keep the test file alive forever: it stops (its PostgreSQL with it)
      child.kill('SIGTERM');
      reject(new Error(`server not ready after 30 s:\n${output}`));
    }, 30_000);
    notReady.unref();
  });
  const { url, kubeconfig } = await ready;
  const ca = await readFile(path.join(dataDir, 'pki', 'ca.crt'), 'utf8');
  const token = (await readFile(path.join(dataDir, 'admin.token'), 'utf8')).split(',')[0];

  const request = httpsClient(url, ca, token);

  return {
    url,
    pid: child.pid!,
    dataDir,
    kubeconfig,
    ca,
    token,
    output: () => output,
    request,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      return exited;
    },
  };
}
