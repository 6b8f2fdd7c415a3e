import { hostname } from 'node:os';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { EventRecorder, referenceTo } from '../events/index.js';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import type { RecordEvent } from './events.js';
import { NodeLifecycleController, type NodeLifecycleOptions } from './node-lifecycle-controller.js';
import { Scheduler } from './scheduler.js';
import { TaintEvictionController } from './taint-eviction-controller.js';

export type NodesOptions = Omit<NodeLifecycleOptions, 'log' | 'now' | 'recordEvent'>;

/** Events as `controller` (kube's reporting controller name) reports them, through the in-process recorder. */
function eventsOf(generic: GenericStore, registry: Registry, controller: string): RecordEvent {
  const log = new Logger(controller);
  const recorder = new EventRecorder(
    generic,
    () => registry.storedKind('events.k8s.io', 'events')!,
    { reportingController: controller, reportingInstance: `${controller}-${hostname()}` },
    { log: (m) => log.warn(m) },
  );
  return (regarding, type, reason, note, action = reason) =>
    recorder.record({ regarding: referenceTo(regarding), type, reason, action, note });
}

const logOf = (name: string) => (m: string) => new Logger(name).warn(m);

/**
 * The node controllers. They are Controllers like ControllersModule's: the application hands their classes
 * to ControllersModule (`moreControllers`), whose runner starts them as --controllers and the controllers'
 * leader election say.
 */
@Module({})
export class NodesModule {
  static forRoot(options: NodesOptions): DynamicModule {
    const inject = [WatchCache, Registry, GenericStore];
    const kindOf = (registry: Registry) => (group: string, resource: string) =>
      registry.storedKind(group, resource);
    return {
      module: NodesModule,
      global: true,
      providers: [
        {
          provide: NodeLifecycleController,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new NodeLifecycleController(cache, kindOf(registry), generic, {
              ...options,
              recordEvent: eventsOf(generic, registry, 'node-controller'),
              log: logOf('node-lifecycle-controller'),
            }),
          inject,
        },
        {
          provide: Scheduler,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new Scheduler(cache, kindOf(registry), generic, {
              recordEvent: eventsOf(generic, registry, 'default-scheduler'),
              log: logOf('scheduler'),
            }),
          inject,
        },
        {
          provide: TaintEvictionController,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new TaintEvictionController(cache, kindOf(registry), generic, {
              recordEvent: eventsOf(generic, registry, 'taint-eviction-controller'),
              log: logOf('taint-eviction-controller'),
            }),
          inject,
        },
      ],
      exports: [NodeLifecycleController, Scheduler, TaintEvictionController],
    };
  }
}
