import {
  Global,
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { GenericStore, Registry } from '../registry/index.js';
import { NamespaceController } from './namespace-controller.js';

class NamespaceControllerRun implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(NamespaceController) private readonly controller: NamespaceController) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.controller.ensureBuiltins();
    this.controller.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.controller.stop();
  }
}

/** The in-process controllers (today: namespace lifecycle), started once the application is up. */
@Global()
@Module({
  providers: [
    {
      provide: NamespaceController,
      useFactory: (registry: Registry, generic: GenericStore) =>
        new NamespaceController(registry, generic, (m) => new Logger('namespace-controller').warn(m)),
      inject: [Registry, GenericStore],
    },
    NamespaceControllerRun,
  ],
  exports: [NamespaceController],
})
export class ControllersModule {}
