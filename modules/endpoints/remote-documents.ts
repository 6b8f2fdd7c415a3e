/**
 * What discovery and OpenAPI keep of the servers behind remote APIServices: their discovery, /openapi/v2 and
 * /openapi/v3 entries, each refreshed on every APIService change and every minute. Exists only on an
 * aggregation host (a RemoteApis was provided); closed with the application.
 */
import type { OnModuleDestroy } from '@nestjs/common';
import {
  remoteDiscovery,
  type RemoteApis,
  type RemoteCacheOptions,
  type RemoteDiscovery,
} from '../discovery/index.js';
import {
  remoteOpenApiV2,
  remoteOpenApiV3,
  type RemoteOpenApiV2,
  type RemoteOpenApiV3,
} from '../openapi/index.js';

export class RemoteDocuments implements OnModuleDestroy {
  readonly discovery: RemoteDiscovery;
  readonly openApiV2: RemoteOpenApiV2;
  readonly openApiV3: RemoteOpenApiV3;

  constructor(remote: RemoteApis, options: Omit<RemoteCacheOptions, 'timeoutMs'> = {}) {
    this.discovery = remoteDiscovery(remote, options);
    this.openApiV2 = remoteOpenApiV2(remote, options);
    this.openApiV3 = remoteOpenApiV3(remote, options);
  }

  /** Fetches every document again now; resolves when all are in (specs and start-up use it). */
  async refresh(): Promise<void> {
    await Promise.all([this.discovery.refresh(), this.openApiV2.refresh(), this.openApiV3.refresh()]);
  }

  close(): void {
    this.discovery.close();
    this.openApiV2.close();
    this.openApiV3.close();
  }

  onModuleDestroy(): void {
    this.close();
  }
}
