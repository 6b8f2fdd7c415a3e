/** PostgresStore against the Store contract, each group on a fresh database; its peer is a second replica. */
import { connect, migrate, PostgresStore } from '../modules/storage/index.js';
import { testDatabase } from './support/database.js';
import { storeContract } from './support/store-contract.js';

storeContract('PostgresStore', async () => {
  const db = await testDatabase();
  await migrate(db.url);
  const sql = connect(db.url, 4);
  const peerSql = connect(db.url, 4);
  return {
    store: new PostgresStore(sql),
    peer: new PostgresStore(peerSql),
    async close() {
      await Promise.all([sql.end(), peerSql.end()]);
      await db.drop();
    },
  };
});
