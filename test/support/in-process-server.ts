/**
 * The real server's modules in the test's own process, listening on a free port: a test can reach into the
 * application (e.g. register a kind at run time through its Registry) while talking HTTPS to it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { UserInfo } from '../../modules/api/index.js';
import { serviceAccountKeys } from '../../modules/authentication/index.js';
import { migrate } from '../../modules/storage/index.js';
import { parseConfig } from '../../src/config/config.js';
import { createServer } from '../../src/server/http.js';
import { serverCredentials } from '../../src/server/credentials.js';
import { httpsClient, type ServerClient } from './server.js';

const TOKEN = 'in-process-admin-token';
const HOST = '127.0.0.1';

export interface InProcessServer extends ServerClient {
  app: NestFastifyApplication;
  stop(): Promise<void>;
}

export interface AppOptions {
  /** more `serve` flags */
  args?: string[];
  /** bearer tokens and their users; default: one admin token in system:masters */
  tokens?: Map<string, UserInfo>;
  /** called with the application before it initialises (e.g. to register kinds) */
  beforeInit?: (app: NestFastifyApplication) => void;
}

/**
 * The application on `databaseUrl` (migrated here), initialised but not listening: requests reach it through
 * Fastify's inject. `address` is what discovery reports as the server's address.
 */
export async function inProcessApp(
  databaseUrl: string,
  options: AppOptions = {},
  address: () => string = () => `${HOST}:6443`,
): Promise<{ app: NestFastifyApplication; http: FastifyInstance; ca: string }> {
  await migrate(databaseUrl);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-in-process-'));
  const config = parseConfig(
    [
      'serve',
      `--data-dir=${dataDir}`,
      `--database-url=${databaseUrl}`,
      `--bind-address=${HOST}`,
      ...(options.args ?? []),
    ],
    {},
  );
  const { tls, trust } = await serverCredentials(config);
  const app = await createServer(config, databaseUrl, tls, {
    tokens: options.tokens ?? new Map([[TOKEN, { name: 'admin', uid: 'admin', groups: ['system:masters'] }]]),
    serviceAccountKeys: serviceAccountKeys({
      verifying: [],
      serving: { name: 'the serving key', pem: tls.key },
    }),
    servingCa: tls.ca,
    serverAddress: address,
    shuttingDown: () => false,
    clientCa: trust.clientCa,
    requestHeader: trust.requestHeader,
  });
  options.beforeInit?.(app);
  await app.init();
  const http = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await http.ready();
  return { app, http, ca: tls.ca };
}

/** Starts the application on `databaseUrl` (migrated here) with `serve` flags `args`, on a free port. */
export async function startInProcess(databaseUrl: string, args: string[] = []): Promise<InProcessServer> {
  let address = `${HOST}:0`;
  const { app, ca } = await inProcessApp(databaseUrl, { args }, () => address);
  await app.listen(0, HOST);
  address = `${HOST}:${(app.getHttpServer().address() as { port: number }).port}`;
  const url = `https://${address}`;
  return {
    app,
    url,
    ca,
    token: TOKEN,
    request: httpsClient(url, ca, TOKEN),
    stop: () => app.close(),
  };
}
