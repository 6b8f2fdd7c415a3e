import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './modules/storage/schema.ts',
  out: './migrations',
});
