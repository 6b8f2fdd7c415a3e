import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type postgres from 'postgres';
import { connect } from './database.js';
import { PostgresStore } from './postgres-store.js';

export const SQL = Symbol('Sql');
export const STORE = Symbol('Store');

class StorageLifecycle implements OnApplicationShutdown {
  constructor(@Inject(SQL) private readonly sql: postgres.Sql) {}
  async onApplicationShutdown(): Promise<void> {
    await this.sql.end({ timeout: 2 });
  }
}

@Module({})
export class StorageModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      providers: [
        { provide: SQL, useFactory: () => connect(databaseUrl, 10) },
        { provide: STORE, useFactory: (sql: postgres.Sql) => new PostgresStore(sql), inject: [SQL] },
        StorageLifecycle,
      ],
      exports: [SQL, STORE],
    };
  }
}
