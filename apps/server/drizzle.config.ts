import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL from src/db/schema into ./drizzle; read it before committing.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema',
  out: './drizzle',
  casing: 'snake_case',
});
