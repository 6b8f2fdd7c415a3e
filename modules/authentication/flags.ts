/**
 * The authentication flags that name files, read once at start, before anything else runs: a file that
 * does not read or validate stops the server with a message naming its flag.
 */
import { readFile } from 'node:fs/promises';
import {
  anonymousAccess,
  parseAuthenticationConfiguration,
  type GateCheck,
} from './authentication-config.js';
import type { AnonymousAccess } from './union.js';
import type { WebhookVersion } from '../webhook/index.js';
import { readWebhookKubeconfig, type WebhookConnection } from '../webhook/index.js';

export interface AuthenticationFlags {
  /** --anonymous-auth; undefined when not given */
  anonymousAuth?: boolean;
  /** --authentication-config */
  authenticationConfig?: string;
  /** --authentication-token-webhook-config-file, -version, -cache-ttl, -timeout */
  webhookConfigFile?: string;
  webhookVersion: WebhookVersion;
  webhookCacheTtlMs: number;
  webhookTimeoutMs: number;
  /** feature gates, by name */
  enabled: GateCheck;
}

/** The token webhook, configured: where it is, which TokenReview it speaks, how long its answers count. */
export interface WebhookOptions {
  connection: WebhookConnection;
  version: WebhookVersion;
  cacheTtlMs: number;
  timeoutMs: number;
  /** false: the webhook is a delegating server's host, asked without audiences (see WebhookTokenAuthenticator) */
  sendAudiences?: boolean;
}

export interface LoadedAuthentication {
  anonymous: AnonymousAccess;
  webhook?: WebhookOptions;
}

async function read(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`${flag}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function loadAuthentication(flags: AuthenticationFlags): Promise<LoadedAuthentication> {
  const file = flags.authenticationConfig;
  const config = file
    ? parseAuthenticationConfiguration(await read(file, '--authentication-config'), file, flags.enabled)
    : undefined;
  const loaded: LoadedAuthentication = { anonymous: anonymousAccess(flags.anonymousAuth, config) };
  if (flags.webhookConfigFile) {
    const flag = '--authentication-token-webhook-config-file';
    let connection: WebhookConnection;
    try {
      connection = await readWebhookKubeconfig(flags.webhookConfigFile);
    } catch (e) {
      throw new Error(`${flag}: ${e instanceof Error ? e.message : String(e)}`);
    }
    loaded.webhook = {
      connection,
      version: flags.webhookVersion,
      cacheTtlMs: flags.webhookCacheTtlMs,
      timeoutMs: flags.webhookTimeoutMs,
    };
  }
  return loaded;
}
