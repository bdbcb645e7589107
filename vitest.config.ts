import { defineConfig } from 'vitest/config';

// One runner, three projects: shared rules (node), the API (node, PGlite), the web app (jsdom).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
  },
});
