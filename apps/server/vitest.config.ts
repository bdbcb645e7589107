import { defineProject } from 'vitest/config';

// PGlite needs seconds to start, so hooks and tests get a generous timeout.
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
