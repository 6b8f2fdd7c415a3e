/**
 * The files the authorization flags name, read once at start, before anything else runs: an ABAC policy file
 * or a webhook kubeconfig that does not read stops the server with a message naming it.
 */
import { readFile } from 'node:fs/promises';
import { readWebhookKubeconfig, type WebhookConnection, type WebhookVersion } from '../webhook/index.js';
import { parsePolicyFile, type AbacPolicy } from './abac.js';
import { parseAuthorizationConfiguration } from './authorization-config.js';
import { checkMatchCondition } from './match-conditions.js';

export interface AuthorizationFileFlags {
  /** --authorization-policy-file (ABAC) */
  policyFile?: string;
  /** --authorization-webhook-config-file, -version, -cache-authorized-ttl, -cache-unauthorized-ttl, -timeout */
  webhookConfigFile?: string;
  webhookVersion: WebhookVersion;
  webhookAuthorizedTtlMs: number;
  webhookUnauthorizedTtlMs: number;
  webhookTimeoutMs: number;
  /** --authorization-config: checked here, read again (and followed) by the module */
  configFile?: string;
}

export interface AuthorizationWebhookOptions {
  connection: WebhookConnection;
  version: WebhookVersion;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  timeoutMs: number;
}

export interface LoadedAuthorization {
  abac?: AbacPolicy[];
  webhook?: AuthorizationWebhookOptions;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function loadAuthorization(flags: AuthorizationFileFlags): Promise<LoadedAuthorization> {
  const loaded: LoadedAuthorization = {};
  if (flags.configFile) {
    let text: string;
    try {
      text = await readFile(flags.configFile, 'utf8');
    } catch (e) {
      throw new Error(`--authorization-config: ${messageOf(e)}`);
    }
    try {
      parseAuthorizationConfiguration(text, flags.configFile, checkMatchCondition);
    } catch (e) {
      throw new Error(`--authorization-config: ${messageOf(e)}`);
    }
  }
  if (flags.policyFile) {
    let text: string;
    try {
      text = await readFile(flags.policyFile, 'utf8');
    } catch (e) {
      throw new Error(`--authorization-policy-file: ${messageOf(e)}`);
    }
    loaded.abac = parsePolicyFile(text, flags.policyFile);
  }
  if (flags.webhookConfigFile) {
    let connection: WebhookConnection;
    try {
      connection = await readWebhookKubeconfig(flags.webhookConfigFile);
    } catch (e) {
      throw new Error(`--authorization-webhook-config-file: ${messageOf(e)}`);
    }
    loaded.webhook = {
      connection,
      version: flags.webhookVersion,
      authorizedTtlMs: flags.webhookAuthorizedTtlMs,
      unauthorizedTtlMs: flags.webhookUnauthorizedTtlMs,
      timeoutMs: flags.webhookTimeoutMs,
    };
  }
  return loaded;
}
