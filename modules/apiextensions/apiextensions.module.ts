import {
  Inject,
  Logger,
  Module,
  Optional,
  type DynamicModule,
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
import { applyApiDefinitions, type ApiDefinition } from './definitions.js';
import { DefinitionsFollower } from './definitions-follower.js';

const logTo = (name: string) => (message: string) => new Logger(name).warn(message);

/** the CustomResourceDefinition kind as registered here (its validation with every check plugged in) */
export const CRD_KIND = Symbol('crd-kind');
const API_DEFINITIONS = Symbol('api-definitions');
/** how long the start waits for the kinds of --api-definitions to be served */
const DEFINITIONS_SERVED_MS = 10_000;

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
    @Inject(GenericStore) private readonly generic: GenericStore,
    @Inject(API_DEFINITIONS) private readonly definitions: readonly ApiDefinition[],
    @Inject(DefinitionsFollower) @Optional() private readonly follower: DefinitionsFollower | null,
  ) {}
  onModuleInit(): void {
    this.registry.register(this.crdKind);
  }
  async onApplicationBootstrap(): Promise<void> {
    await this.serving.start();
    this.controller.start();
    await applyApiDefinitions(this.generic, this.crdKind, this.definitions);
    await this.definitionsServed();
    await this.follower?.start(this.definitions);
  }

  /** The kinds of --api-definitions are served before the server listens (or a warning says which are not). */
  private async definitionsServed(): Promise<void> {
    const deadline = Date.now() + DEFINITIONS_SERVED_MS;
    const unserved = () =>
      this.definitions.filter(({ crd }) => {
        const spec = crd.spec as { group?: string; names?: { plural?: string } } | undefined;
        return !this.registry.storedKind(spec?.group ?? '', spec?.names?.plural ?? '');
      });
    while (unserved().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const { file, crd } of unserved()) {
      new Logger('apiextensions').warn(
        `--api-definitions: ${file}: customresourcedefinition ${crd.metadata.name} is not served yet (see its status conditions)`,
      );
    }
  }
  async onApplicationShutdown(): Promise<void> {
    this.follower?.stop();
    this.serving.stop();
    await this.controller.stop();
  }
}

@Module({})
export class ApiextensionsModule {
  /** `definitions`: the CRDs of --api-definitions, read before the start from `path`, followed from then on */
  static forRoot(definitions: readonly ApiDefinition[] = [], path?: string): DynamicModule {
    const following = path
      ? [
          {
            provide: DefinitionsFollower,
            useFactory: (generic: GenericStore, kind: ResourceDefinition) =>
              new DefinitionsFollower(path, generic, kind, logTo('apiextensions')),
            inject: [GenericStore, CRD_KIND],
          },
        ]
      : [];
    return {
      module: ApiextensionsModule,
      providers: [{ provide: API_DEFINITIONS, useValue: definitions }, ...following, ...providers],
      exports: [CrdServing, CrdController],
    };
  }
}

const providers = [
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
];
