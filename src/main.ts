#!/usr/bin/env node
/** CLI entry: `pgkube serve [flags]` and `pgkube migrate --database-url …`. */
import 'reflect-metadata';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  adminCredentials,
  kubeconfig,
  loadAuthentication,
  loadServiceAccountKeys,
  parseTokenFile,
} from '../modules/authentication/index.js';
import { migrate, startEmbeddedPostgres, type RunningPostgres } from '../modules/storage/index.js';
import { ConfigError, parseConfig, usage, type Config } from './config/config.js';
import { createServer } from './server/http.js';
import { servingTls } from './server/tls.js';
import type { ClusterEndpoint } from '../modules/controllers/index.js';

async function serve(config: Config): Promise<void> {
  // the files authentication flags name are read first: a bad one stops the server before anything starts
  const authentication = await loadAuthentication({
    anonymousAuth: config.anonymousAuth,
    authenticationConfig: config.authenticationConfig,
    webhookConfigFile: config.authenticationTokenWebhookConfigFile,
    webhookVersion: config.authenticationTokenWebhookVersion,
    webhookCacheTtlMs: config.authenticationTokenWebhookCacheTtlMs,
    webhookTimeoutMs: config.authenticationTokenWebhookTimeoutMs,
    enabled: (name) => config.featureGates.enabled(name as never),
  });
  await mkdir(config.dataDir, { recursive: true });
  // keys before the database: a key flag that cannot work stops the server at once
  const tls = await servingTls({
    dataDir: config.dataDir,
    bindAddress: config.bindAddress,
    certFile: config.tlsCertFile,
    keyFile: config.tlsPrivateKeyFile,
  });
  const serviceAccountKeys = await loadServiceAccountKeys({
    signingKeyFile: config.serviceAccountSigningKeyFile,
    keyFiles: config.serviceAccountKeyFiles,
    serving: {
      name: config.tlsPrivateKeyFile
        ? `--tls-private-key-file ${JSON.stringify(config.tlsPrivateKeyFile)}`
        : `the serving key ${JSON.stringify(path.join(config.dataDir, 'pki', 'apiserver.key'))}`,
      pem: tls.key,
    },
  });
  let embedded: RunningPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'postgres'),
      database: 'pgkube',
    });
    databaseUrl = embedded.url;
  }
  await migrate(databaseUrl);
  const admin = await adminCredentials(config.dataDir);
  const tokens = config.tokenAuthFile
    ? parseTokenFile(await readFile(config.tokenAuthFile, 'utf8'), config.tokenAuthFile)
    : new Map();
  tokens.set(admin.token, admin.user);

  let address = `${config.bindAddress}:${config.securePort}`;
  let stopping = false;
  let listening!: (endpoint: ClusterEndpoint) => void;
  const clusterEndpoint = new Promise<ClusterEndpoint>((resolve) => (listening = resolve));
  const app = await createServer(config, databaseUrl, tls, {
    tokens,
    serviceAccountKeys,
    servingCa: tls.ca,
    serverAddress: () => address,
    shuttingDown: () => stopping,
    authentication,
    clusterEndpoint,
  });
  await app.listen(config.securePort, config.bindAddress);
  const port = (app.getHttpServer().address() as { port: number }).port;
  const host =
    config.bindAddress === '0.0.0.0' || config.bindAddress === '::' ? '127.0.0.1' : config.bindAddress;
  address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `https://${address}`;
  listening({ server: url, ca: tls.ca });
  const kubeconfigPath = path.join(config.dataDir, 'admin.kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig(url, tls.ca, admin.token), { mode: 0o600 });
  console.log(`pgkube serving on ${url} (kubeconfig: ${kubeconfigPath})`);

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`pgkube: ${signal}, shutting down`);
    // load balancers see /readyz fail and drain; requests are still served meanwhile
    if (config.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
    await app.close().catch((e) => console.error(e));
    await embedded?.stop().catch((e) => console.error(e));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`pgkube: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  for (const warning of config.warnings) console.warn(`pgkube: warning: ${warning}`);
  if (config.command === 'help') {
    console.log(usage);
    return;
  }
  if (config.command === 'migrate') {
    await migrate(config.databaseUrl!);
    console.log('pgkube: migrations applied');
    return;
  }
  await serve(config);
}

main().catch((e) => {
  console.error(`pgkube: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
