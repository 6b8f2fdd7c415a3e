/**
 * A seeded fuzz run against the real server: a few thousand requests built from every path shape, method,
 * query parameter, content type, patch type and body form the API knows, with hostile values mixed in. Every
 * answer must be a client error or success, never a 5xx; every error body must be a Status; no request may
 * hang; the server must still be healthy afterwards. A failure prints the seed and the request, so it can be
 * replayed with PGKUBE_FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { useServer } from './support/use-server.js';

const SEED = Number(process.env.PGKUBE_FUZZ_SEED ?? 20261125);
const CASES = Number(process.env.PGKUBE_FUZZ_CASES ?? 3000);
const CONCURRENCY = 8;
/** the methods to send (PGKUBE_FUZZ_METHODS=GET,POST narrows a replay) */
const METHODS = (process.env.PGKUBE_FUZZ_METHODS ?? 'GET,GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS').split(',');
/** no request may take longer than this (watches are asked for timeoutSeconds=1) */
const HANG_MS = 10_000;

/** mulberry32: small, fast, good enough to pick from lists reproducibly */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

function generator(random: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;
  const int = (n: number) => Math.floor(random() * n);

  const names = [
    'cm1',
    'a',
    'default',
    'kube-system',
    'x'.repeat(300),
    '%00',
    'a%00b',
    '%zz',
    '%2F',
    '..',
    '.',
    'UPPER',
    '-bad-',
    'na%C3%AFve',
    '%F0%9F%98%80',
    '%ED%A0%80',
    'a.b.c',
    '',
  ];
  const resources = [
    'configmaps',
    'secrets',
    'serviceaccounts',
    'events',
    'namespaces',
    'pods',
    'configmaps.v1',
    'CONFIGMAPS',
  ];
  const groupVersions = [
    '/api/v1',
    '/api/v2',
    '/apis/coordination.k8s.io/v1',
    '/apis/coordination.k8s.io/v1beta1',
    '/apis/events.k8s.io/v1',
    '/apis/batch/v1beta1',
    '/apis/nope.example.com/v1',
    '/apis',
    '/api',
  ];
  const otherPaths = [
    '/',
    '/version',
    '/healthz',
    '/livez?verbose',
    '/readyz/postgres',
    '/readyz/nope',
    '/metrics',
    '/openapi/v2',
    '/openapi/v3',
    '/openapi/v3/api/v1',
    '/openapi/v3/apis/nope/v1',
    '/apis/coordination.k8s.io',
    '//api//v1',
    '/api/v1/namespaces/default/configmaps/cm1/status',
    '/api/v1/namespaces/default/finalize',
    '/api/v1/namespaces/default/status',
  ];

  function path(): string {
    if (chance(0.15)) return pick(otherPaths);
    const gv = pick(groupVersions);
    const parts = [gv];
    if (chance(0.7)) parts.push('namespaces', pick(names));
    parts.push(pick(resources));
    if (chance(0.6)) parts.push(pick(names));
    if (chance(0.15)) parts.push(pick(['status', 'finalize', 'scale', 'log', 'x']));
    return parts.join('/');
  }

  const queryValues: Record<string, readonly string[]> = {
    watch: ['true', '1', 'false', '0', 'maybe', ''],
    labelSelector: [
      'a=b',
      'a in ()',
      'a in (x,y)',
      '!a',
      'a!=b,c',
      '=',
      'a=%00',
      '((',
      'a notin (b)',
      'x'.repeat(400),
    ],
    fieldSelector: ['metadata.name=cm1', 'metadata.namespace!=x', 'spec.nope=1', '=', 'metadata.name==a,b'],
    limit: ['1', '0', '-1', 'abc', '999999999999', '2.5'],
    continue: ['', 'abc', 'eyJydiI6MX0', '%00'],
    resourceVersion: ['0', '1', '-1', 'abc', '99999999999', ''],
    resourceVersionMatch: ['Exact', 'NotOlderThan', 'Bogus'],
    timeoutSeconds: ['1', '0', '-1', 'abc'],
    dryRun: ['All', 'Bogus', ''],
    fieldManager: ['me', 'x'.repeat(200), '%00'],
    fieldValidation: ['Strict', 'Warn', 'Ignore', 'Bogus'],
    propagationPolicy: ['Orphan', 'Background', 'Foreground', 'Bogus'],
    gracePeriodSeconds: ['0', '-1', 'abc', '30'],
    pretty: ['true', 'false', 'x'],
    allowWatchBookmarks: ['true', 'x'],
    sendInitialEvents: ['true', 'false', 'x'],
    force: ['true', 'false'],
    includeObject: ['None', 'Object', 'Metadata', 'Bogus'],
  };

  function query(method: string): string {
    const params: string[] = [];
    const keys = Object.keys(queryValues);
    for (let i = int(4); i > 0; i--) {
      const k = pick(keys);
      params.push(`${k}=${encodeURIComponent(pick(queryValues[k]))}`);
    }
    if (method === 'GET' && chance(0.1)) params.push(`dryRun=All`, `dryRun=${pick(['All', 'Bogus'])}`);
    // a watch must end by itself
    params.push('timeoutSeconds=1');
    return params.length ? `?${params.join('&')}` : '';
  }

  const contentTypes = [
    'application/json',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
    'application/cbor',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    'text/plain',
    'application/json; charset=utf-8',
    '',
  ];
  const accepts = [
    'application/json',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
    'application/json;as=Table;v=v1;g=meta.k8s.io',
    'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
    'application/cbor',
    '*/*',
    'text/html',
    'application/json;as=Bogus',
  ];

  const hostileStrings = ['\u0000', 'a\u0000b', '\ud800', '\udfff', 'x'.repeat(70_000), '💥', '\\', '"', ''];

  function configMap(): Record<string, unknown> {
    const data: Record<string, unknown> = { k: 'v' };
    if (chance(0.3)) data[pick(['bad key', '.', '..', 'ok', '\u0000'])] = pick(hostileStrings);
    if (chance(0.2)) data.n = pick([1, true, null, [], {}, 1e308]);
    const metadata: Record<string, unknown> = {
      name: pick(['cm1', 'cm2', 'Bad_Name', '', '\u0000', 'x'.repeat(300)]),
    };
    if (chance(0.3))
      metadata.labels = { [pick(['a', 'a/b/c', '', 'x'.repeat(70)])]: pick(['v', '\u0000', '-x-']) };
    if (chance(0.2)) metadata.resourceVersion = pick(['1', '0', 'abc', '999999']);
    if (chance(0.1)) metadata.namespace = pick(['default', 'other', '']);
    if (chance(0.1)) metadata.finalizers = [pick(['a/b', 'x', ''])];
    const obj: Record<string, unknown> = {
      apiVersion: pick(['v1', 'v2', 'apps/v1']),
      kind: pick(['ConfigMap', 'Secret', 'Pod']),
      metadata,
      data,
    };
    if (chance(0.1)) obj.metadata = pick([null, 'x', [], 1]);
    if (chance(0.05)) delete obj.kind;
    return obj;
  }

  /** JSON nested `depth` objects deep, written as text (a deep value would overflow JSON.stringify here) */
  function deep(depth: number): string {
    return `${'{"a":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;
  }

  function body(contentType: string): Buffer | undefined {
    if (chance(0.08)) return undefined;
    switch (int(10)) {
      case 0:
        return Buffer.from(Array.from({ length: int(200) }, () => int(256)));
      case 1:
        return Buffer.from(deep(pick([100, 2000, 20000])));
      case 2:
        return Buffer.from(
          pick(['{', '[]', 'null', '"x"', '1', '{"a":', '!!binary xyz', 'a: &a [*a]', '- - - -']),
        );
      case 3:
        return Buffer.from('a:\n' + '  '.repeat(1) + '- '.repeat(pick([10, 5000])) + 'x');
      case 4:
        return Buffer.from(
          JSON.stringify(
            pick([
              [{ op: 'replace', path: '/kind', value: 'Secret' }],
              [{ op: 'test', path: '/data/k', value: 'nope' }],
              [{ op: 'remove', path: '/metadata' }],
              [{ op: 'add', path: '/data/\u0000', value: 'x' }],
              [{ op: 'move', from: '/data', path: '/data/k' }],
              [{ op: 'bogus' }],
              { metadata: { resourceVersion: '1' } },
              { data: { k: null } },
              { $patch: 'delete' },
              { metadata: { $deleteFromPrimitiveList: 'x' } },
            ]),
          ),
        );
      default: {
        const obj = configMap();
        return Buffer.from(contentType.includes('yaml') && chance(0.5) ? yamlOf(obj) : JSON.stringify(obj));
      }
    }
  }

  function yamlOf(obj: Record<string, unknown>): string {
    // JSON is YAML; a YAML-only form now and then
    return chance(0.5)
      ? JSON.stringify(obj)
      : `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y1\ndata:\n  k: !!binary eA==\n`;
  }

  return (): Case => {
    const method = pick(METHODS);
    const headers: Record<string, string> = {};
    const contentType = pick(contentTypes);
    if (contentType) headers['content-type'] = contentType;
    headers.accept = pick(accepts);
    if (chance(0.05)) headers.authorization = pick(['Bearer nope', 'Basic abc', 'Bearer ', 'bearer']);
    if (chance(0.05)) headers['impersonate-group'] = 'x';
    if (chance(0.05)) headers['accept-encoding'] = 'gzip';
    const withBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
    return { method, path: path() + query(method), headers, body: withBody ? body(contentType) : undefined };
  };
}

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

describe('fuzz', () => {
  const s = useServer();

  it(`${CASES} seeded requests: no 5xx, every error a Status, no hang (seed ${SEED})`, async () => {
    const next = generator(prng(SEED));
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: s.ca });
    const url = new URL(s.url);
    const send = (c: Case): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const headers: Record<string, string> = { authorization: `Bearer ${s.token}`, ...c.headers };
        if (c.body) headers['content-length'] = String(c.body.length);
        const req = httpsRequest(
          { host: url.hostname, port: url.port, path: c.path, method: c.method, headers, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (d: Buffer) => chunks.push(d));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type'] ?? ''),
                body: Buffer.concat(chunks),
              }),
            );
            res.on('error', reject);
          },
        );
        req.setTimeout(HANG_MS, () => req.destroy(new Error(`no answer within ${HANG_MS} ms`)));
        req.on('error', reject);
        req.end(c.body);
      });

    // a few objects to hit
    for (const name of ['cm1', 'cm2']) {
      await s.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } },
      });
    }

    const failures: string[] = [];
    let done = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (done < CASES && failures.length < 20) {
        const n = done++;
        const c = next();
        const what = `#${n} ${c.method} ${c.path} ${JSON.stringify(c.headers)} body=${c.body?.subarray(0, 120).toString() ?? '-'}`;
        let a: Answer;
        try {
          a = await send(c);
        } catch (e) {
          failures.push(`${what}: ${(e as Error).message}`);
          continue;
        }
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        // kube's own 504 for a resourceVersion newer than any known: waited for, then Timeout
        const tooNew = a.status === 504 && /"reason":"Timeout"/.test(a.body.toString());
        if (a.status >= 500 && !tooNew) {
          failures.push(`${what}: ${a.status} ${a.body.subarray(0, 300).toString()}`);
          continue;
        }
        if (a.status >= 400 && c.method !== 'HEAD' && a.type.startsWith('application/json')) {
          let status: { kind?: string; code?: number } | undefined;
          try {
            status = JSON.parse(a.body.toString());
          } catch {
            status = undefined;
          }
          if (status?.kind !== 'Status' || status.code !== a.status) {
            failures.push(`${what}: ${a.status} not a Status: ${a.body.subarray(0, 300).toString()}`);
          }
        } else if (
          a.status >= 400 &&
          c.method !== 'HEAD' &&
          !/yaml|protobuf|cbor/.test(a.type) &&
          a.body.length > 0
        ) {
          failures.push(
            `${what}: ${a.status} with Content-Type ${a.type}: ${a.body.subarray(0, 200).toString()}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    const health = await s.request('GET', '/readyz');
    assert.equal(health.status, 200, `server not ready after the fuzz run: ${health.text}`);
    assert.deepEqual(failures, [], `seed ${SEED}; answers: ${JSON.stringify([...statuses].sort())}`);
  });
});
