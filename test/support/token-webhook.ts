/**
 * A webhook for tests: an HTTPS server on 127.0.0.1 (its own CA) that answers reviews (TokenReview,
 * SubjectAccessReview: the kind asked) as a script
 * says, records every call, and writes the kubeconfig pgkube's --authentication-token-webhook-config-file
 * reads.
 */
// @peculiar/x509 (servingTls) needs the metadata polyfill loaded first
import 'reflect-metadata';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { servingTls } from '../../src/server/tls.js';
import { dataDirCa } from '../../src/pki/data-dir-ca.js';

export interface WebhookCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** the raw body, byte for byte */
  body: string;
  review: any;
}

/**
 * What to answer: a review's status (TokenReview, SubjectAccessReview), a whole body (ConversionReview), an
 * HTTP status code, or 'hang' (never answer).
 */
export type WebhookAnswer =
  { status: Record<string, unknown> } | { body: unknown } | { code: number } | 'hang';

export interface TokenWebhook {
  url: string;
  /** the CA (PEM) its serving certificate chains to */
  ca: string;
  calls: WebhookCall[];
  /** calls about one token */
  callsFor(token: string): WebhookCall[];
  /** a kubeconfig reaching this webhook, the user sending `bearer` */
  kubeconfig(bearer: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTokenWebhook(answer: (review: any) => WebhookAnswer): Promise<TokenWebhook> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-webhook-'));
  const tls = await servingTls({ dataDir: dir, bindAddress: '127.0.0.1', ca: await dataDirCa(dir) });
  const calls: WebhookCall[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let review: any;
      try {
        review = JSON.parse(body);
      } catch {
        review = undefined;
      }
      calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, review });
      const a = answer(review);
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      if ('code' in a) {
        res.writeHead(a.code, { 'content-type': 'text/plain' }).end('no');
        return;
      }
      if ('body' in a) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ apiVersion: review.apiVersion, kind: review.kind, status: a.status }));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/authenticate`;
  return {
    url,
    ca: tls.ca,
    calls,
    callsFor: (token) => calls.filter((c) => c.review?.spec?.token === token),
    async kubeconfig(bearer) {
      const file = path.join(
        dir,
        `webhook-${calls.length}-${Math.random().toString(36).slice(2)}.kubeconfig`,
      );
      const config = {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'webhook',
            cluster: { server: url, 'certificate-authority-data': Buffer.from(tls.ca).toString('base64') },
          },
        ],
        users: [{ name: 'apiserver', user: { token: bearer } }],
        contexts: [{ name: 'webhook', context: { cluster: 'webhook', user: 'apiserver' } }],
        'current-context': 'webhook',
      };
      await writeFile(file, stringify(config), { mode: 0o600 });
      return file;
    },
    async close() {
      for (const res of hanging) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
