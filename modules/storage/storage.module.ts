import { Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type postgres from 'postgres';
import { connect } from './database.js';
import { PostgresStore } from './postgres-store.js';
import type { CircuitOptions } from './circuit.js';

export const SQL = Symbol('Sql');
export const STORE = Symbol('Store');

export interface StorageOptions {
  /** how long a request waits for an unreachable database to come back before it is answered 503 */
  unavailableTimeoutMs?: number;
  /** the circuit's other bounds (tests) */
  circuit?: Partial<CircuitOptions>;
}

class StorageLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(SQL) private readonly sql: postgres.Sql,
    @Inject(STORE) private readonly store: PostgresStore,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    await this.sql.end({ timeout: 2 });
  }
}

@Module({})
export class StorageModule {
  static forRoot(databaseUrl: string, options: StorageOptions = {}): DynamicModule {
    const logger = new Logger('storage');
    const circuit: Partial<CircuitOptions> = { log: (m) => logger.warn(m), ...options.circuit };
    if (options.unavailableTimeoutMs !== undefined) circuit.waitMs = options.unavailableTimeoutMs;
    return {
      module: StorageModule,
      global: true,
      providers: [
        { provide: SQL, useFactory: () => connect(databaseUrl, 10) },
        {
          provide: STORE,
          useFactory: (sql: postgres.Sql) => new PostgresStore(sql, circuit, () => connect(databaseUrl, 10)),
          inject: [SQL],
        },
        StorageLifecycle,
      ],
      exports: [SQL, STORE],
    };
  }
}
