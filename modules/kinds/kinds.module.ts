import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { Registry } from '../registry/index.js';
import { builtinDefinitions } from './builtin.js';

/**
 * Registers the built-in kinds the way a CRD's kind joins: through Registry.register. Nest runs every
 * onModuleInit before any onApplicationBootstrap, so the watch cache and the controllers find them there.
 */
@Module({})
export class KindsModule implements OnModuleInit {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  onModuleInit(): void {
    for (const def of builtinDefinitions) this.registry.register(def);
  }
}
