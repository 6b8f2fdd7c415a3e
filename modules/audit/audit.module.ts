import { Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Auditor } from './auditor.js';
import { openAuditor, type AuditOptions } from './load.js';

/** Nest token of the Auditor; null: nothing is audited */
export const AUDITOR = Symbol('Auditor');

class AuditLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AUDITOR) private readonly auditor: Auditor | null) {}
  async onApplicationShutdown(): Promise<void> {
    await this.auditor?.close();
  }
}

/** The audit step's Auditor, made from the audit flags (--audit-policy-file, --audit-log-*, --audit-database). */
@Module({})
export class AuditModule {
  static forRoot(options: Omit<AuditOptions, 'log'>): DynamicModule {
    const logger = new Logger('audit');
    return {
      module: AuditModule,
      global: true,
      providers: [
        {
          provide: AUDITOR,
          useFactory: () => openAuditor({ ...options, log: (m) => logger.warn(m) }) ?? null,
        },
        AuditLifecycle,
      ],
      exports: [AUDITOR],
    };
  }
}
