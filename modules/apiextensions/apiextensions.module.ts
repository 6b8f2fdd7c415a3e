import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { GenericStore, Registry, type ResourceDefinition } from '../registry/index.js';
import { validateDefault } from '../schema/index.js';
import { WatchCache } from '../watch/index.js';
import { compileSchemaRules } from './cel/index.js';
import { crdDefinition } from './crd/index.js';
import { CrdController } from './crd-controller.js';
import { CrdServing } from './crd-serving.js';

const logTo = (name: string) => (message: string) => new Logger(name).warn(message);

/** the CustomResourceDefinition kind as registered here (its validation with every check plugged in) */
export const CRD_KIND = Symbol('crd-kind');

/**
 * CRDs: the kind itself, its status controller, and the serving of the kinds CRDs define. kube-apiserver runs
 * these itself (not kube-controller-manager), so `--controllers` does not turn them off. The CRDs stored when
 * the server starts are served before it listens.
 */
class ApiextensionsLifecycle implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(Registry) private readonly registry: Registry,
    @Inject(CRD_KIND) private readonly crdKind: ResourceDefinition,
    @Inject(CrdServing) private readonly serving: CrdServing,
    @Inject(CrdController) private readonly controller: CrdController,
  ) {}
  onModuleInit(): void {
    this.registry.register(this.crdKind);
  }
  async onApplicationBootstrap(): Promise<void> {
    await this.serving.start();
    this.controller.start();
  }
  async onApplicationShutdown(): Promise<void> {
    this.serving.stop();
    await this.controller.stop();
  }
}

@Module({
  providers: [
    {
      provide: CRD_KIND,
      // a default is judged by the values module (it wants the schema's own path, not `….default`)
      useFactory: () =>
        crdDefinition({
          validateDefault: (schema, _value, path) => validateDefault(schema, path.replace(/\.default$/, '')),
          validateRules: (schema, path) => compileSchemaRules(schema, path),
        }),
    },
    {
      provide: CrdServing,
      useFactory: (cache: WatchCache, registry: Registry) =>
        new CrdServing(cache, registry, logTo('apiextensions')),
      inject: [WatchCache, Registry],
    },
    {
      provide: CrdController,
      useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore, kind: ResourceDefinition) =>
        new CrdController(cache, registry, generic, kind, logTo('apiextensions-controller')),
      inject: [WatchCache, Registry, GenericStore, CRD_KIND],
    },
    ApiextensionsLifecycle,
  ],
  exports: [CrdServing, CrdController],
})
export class ApiextensionsModule {}
