/**
 * Requests with chosen TLS credentials (a client certificate, a bearer token, both or neither) over HTTP/1.1
 * (a fresh connection each) or h2 (one session, many requests), and the identity the server sees.
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { ServerClient } from './server.js';

export interface Credentials {
  /** client certificate chain (leaf first) and key, PEM */
  cert?: string;
  key?: string;
  token?: string;
}

export interface TlsResponse {
  status: number;
  text: string;
  json: any;
}

export interface TlsRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}

function parsed(status: number, text: string): TlsResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, text, json };
}

function headersOf(c: Credentials, r: TlsRequest, payload?: string): Record<string, string | string[]> {
  return {
    ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...r.headers,
  };
}

/** One HTTP/1.1 request on its own TLS connection. */
export function h1Request(s: ServerClient, c: Credentials, r: TlsRequest): Promise<TlsResponse> {
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(r.path, s.url),
      {
        method: r.method ?? 'GET',
        ca: s.ca,
        cert: c.cert,
        key: c.key,
        agent: false,
        headers: headersOf(c, r, payload),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => resolve(parsed(res.statusCode ?? 0, Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** An h2 session presenting `c`'s certificate (a token, if any, goes with each request). */
export function h2Session(s: ServerClient, c: Credentials): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(s.url, { ca: s.ca, cert: c.cert, key: c.key });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

export function h2Request(session: ClientHttp2Session, c: Credentials, r: TlsRequest): Promise<TlsResponse> {
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': r.method ?? 'GET',
      ':path': r.path,
      ...headersOf(c, r, payload),
    });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (b: Buffer) => chunks.push(b));
    stream.on('end', () => resolve(parsed(status, Buffer.concat(chunks).toString())));
    stream.on('error', reject);
    stream.end(payload);
  });
}

/** One request on a new h2 session, closed after. */
export async function h2Once(s: ServerClient, c: Credentials, r: TlsRequest): Promise<TlsResponse> {
  const session = await h2Session(s, c);
  try {
    return await h2Request(session, c, r);
  } finally {
    session.close();
  }
}

export interface Identity {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/**
 * The user the server sees for `send`'s credentials, from a SelfSubjectReview (what `kubectl auth whoami`
 * asks); undefined while the server does not serve the API (it comes with the TokenReview/SelfSubjectReview
 * work), so tests check identity through it as soon as it is there.
 */
export async function selfSubjectReview(
  send: (r: TlsRequest) => Promise<TlsResponse>,
): Promise<Identity | undefined> {
  const r = await send({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  if (r.status === 404) return undefined;
  if (r.status !== 201 && r.status !== 200) throw new Error(`SelfSubjectReview: ${r.status} ${r.text}`);
  return r.json.status.userInfo as Identity;
}
