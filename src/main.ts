#!/usr/bin/env node
/**
 * CLI entry: `pgkube serve [flags]`, `pgkube migrate --database-url …`, `pgkube kubeconfig …`, `pgkube credential …`,
 * `pgkube node-agent …`.
 */
import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import {
  adminCredentials,
  hostConnection,
  kubeconfig,
  loadAuthentication,
  loadServiceAccountKeys,
  parseTokenFile,
} from '../modules/authentication/index.js';
import { readApiDefinitions } from '../modules/apiextensions/index.js';
import { loadAuthorization } from '../modules/authorization/index.js';
import { loadAuditPolicy } from '../modules/audit/index.js';
import { readUpstream } from '../modules/sidecar/index.js';
import {
  migrate,
  startEmbeddedPostgres,
  type Adoption,
  type RunningPostgres,
} from '../modules/storage/index.js';
import { ConfigError, parseConfig, usage, type Config } from './config/config.js';
import { createServer } from './server/http.js';
import { makePrivateDir, writePrivateFile } from './pki/private-files.js';
import { acceptableClientCas, serverCredentials } from './server/credentials.js';
import { delegation } from './server/delegation.js';
import { credentialCommand } from './commands/credential.js';
import { kubeconfigCommand } from './commands/kubeconfig.js';
import { simulateNodesCommand } from './commands/simulate-nodes.js';
import { nodeAgentCommand } from './commands/node-agent.js';
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
  const authorization = await loadAuthorization({
    policyFile: config.authorizationPolicyFile,
    webhookConfigFile: config.authorizationWebhookConfigFile,
    webhookVersion: config.authorizationWebhookVersion,
    webhookAuthorizedTtlMs: config.authorizationWebhookCacheAuthorizedTtlMs,
    webhookUnauthorizedTtlMs: config.authorizationWebhookCacheUnauthorizedTtlMs,
    webhookTimeoutMs: config.authorizationWebhookTimeoutMs,
    configFile: config.authorizationConfig,
  });
  // kube's audit policy, validated before anything starts
  const audit = config.auditPolicyFile ? await loadAuditPolicy(config.auditPolicyFile) : undefined;
  for (const warning of audit?.warnings ?? []) console.warn(`pgkube: warning: ${warning}`);
  const apiDefinitions = config.apiDefinitions ? await readApiDefinitions(config.apiDefinitions) : [];
  // keys and tokens live here; an embedded PostgreSQL run as its own OS user (we are root) must pass through
  const embeddedAsOtherUser = !config.databaseUrl && process.getuid?.() === 0;
  await makePrivateDir(config.dataDir, embeddedAsOtherUser);
  // flags naming files are checked before anything starts
  const { tls, trust, proxyClient, warnings } = await serverCredentials(config);
  for (const warning of warnings) console.warn(`pgkube: warning: ${warning}`);
  // sidecar mode: the upstream cluster, also the host of delegated authentication and authorization by default
  const upstream = config.upstream ? await readUpstream(config.upstream) : undefined;
  const delegated = await delegation(config, trust, (m) => console.warn(`pgkube: warning: ${m}`), upstream);
  if (delegated.authentication) authentication.webhook = delegated.authentication.webhook;
  const hostTrust = delegated.authentication?.hostTrust;
  if (hostTrust) tls.clientCas = acceptableClientCas(trust, hostTrust);
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
  reportRestore(await migrate(databaseUrl));
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
    authorization,
    auditPolicy: audit?.policy,
    clusterEndpoint,
    clientCa: trust.clientCa,
    requestHeader: trust.requestHeader,
    proxyClient,
    registration: config.apiserviceKubeconfig
      ? {
          host: await hostConnection(config.apiserviceKubeconfig, '--apiservice-kubeconfig'),
          options: {
            service: config.apiserviceService!,
            caBundle: tls.ca,
            groupPriorityMinimum: config.apiserviceGroupPriorityMinimum,
            versionPriority: config.apiserviceVersionPriority,
          },
        }
      : undefined,
    apiDefinitions,
    hostTrust,
    delegatedAuthorization: delegated.authorization,
    namespaces: delegated.namespaces,
    upstream,
  });
  // the handshake names the host's CAs as they change (a Go client sends no certificate of another issuer)
  hostTrust?.onChange(() =>
    (app.getHttpServer() as unknown as TlsServer).setSecureContext({
      cert: tls.cert,
      key: tls.key,
      minVersion: 'TLSv1.2',
      ca: acceptableClientCas(trust, hostTrust),
    }),
  );
  await app.listen(config.securePort, config.bindAddress);
  const port = (app.getHttpServer().address() as { port: number }).port;
  const host =
    config.bindAddress === '0.0.0.0' || config.bindAddress === '::' ? '127.0.0.1' : config.bindAddress;
  address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `https://${address}`;
  listening({ server: url, ca: tls.ca });
  const kubeconfigPath = path.join(config.dataDir, 'admin.kubeconfig');
  await writePrivateFile(kubeconfigPath, kubeconfig(url, tls.ca, admin.token));
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

/** A restored database was noticed (modules/storage/database-identity.ts): say what clients will see. */
function reportRestore(adoption: Adoption): void {
  if (!adoption.restored) return;
  console.log(
    `pgkube: this database is a restore (its identity changed): revisions continue from ${adoption.historyFrom} ` +
      `(found ${adoption.foundRv}); watches from earlier revisions get 410 Gone and relist`,
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'kubeconfig') return kubeconfigCommand(process.argv.slice(3));
  if (process.argv[2] === 'credential') return credentialCommand(process.argv.slice(3));
  if (process.argv[2] === 'simulate-nodes') return simulateNodesCommand(process.argv.slice(3));
  if (process.argv[2] === 'node-agent') return nodeAgentCommand(process.argv.slice(3));
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
    reportRestore(await migrate(config.databaseUrl!));
    console.log('pgkube: migrations applied');
    return;
  }
  await serve(config);
}

main().catch((e) => {
  console.error(`pgkube: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
