import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
// By path: Vite bundles the config with packages external, and @bdms/shared ships TypeScript source.
import { APP_NAME } from '../../packages/shared/src/constants.ts';
import packageJson from './package.json' with { type: 'json' };

/** The brand red (`--color-primary-700` in src/index.css); also the manifest's theme colour. */
const THEME_COLOR = '#b91c1c';
const API_TARGET = 'http://127.0.0.1:3000';

/** Vendor libraries get their own long-lived chunks, so an app release does not re-download them. */
const VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  {
    name: 'i18n',
    test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/,
  },
];

/**
 * The app code every page loads (shell, session, header, translations) goes in one chunk rather
 * than a dozen small shared ones: fewer requests and better compression on slow networks. Lazy
 * screens keep their own chunks; the entry (index.html → src/main.tsx) stays the entry.
 */
function isShellModule(id: string): boolean {
  return !id.includes('node_modules') && !/(\.html|[\\/]src[\\/]main\.tsx)(\?.*)?$/.test(id);
}

/** Initialisers that are only values: nothing to run, nothing to drop. */
const INERT_INITIALISERS = new Set([
  'Literal',
  'Identifier',
  'ArrowFunctionExpression',
  'FunctionExpression',
  'ClassExpression',
]);

/**
 * @bdms/shared builds its zod schemas at module level (`export const x = z.object(...).strict()`).
 * A bundler must keep such calls even when nothing uses them, which would put zod (~30 KB gzip)
 * on the first page load although the web app only needs shared constants there. This marks each
 * top-level initialiser of the shared sources as pure (wrapped in a pure IIFE: same value, same
 * order), so unused schemas, and zod with them, are tree-shaken out of the initial chunks. The
 * pages that validate forms still get zod, in their own chunks.
 */
function pureSharedInitialisers(): Plugin {
  const SHARED_SOURCE = /[\\/]packages[\\/]shared[\\/]src[\\/][^\\/]+\.ts$/;
  return {
    name: 'bdms:pure-shared-initialisers',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!SHARED_SOURCE.test(id) || id.endsWith('.test.ts')) return null;
      const spans: [number, number][] = [];
      for (const statement of this.parse(code).body) {
        const declaration =
          statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations) {
          if (init && !INERT_INITIALISERS.has(init.type)) spans.push([init.start, init.end]);
        }
      }
      let output = code;
      for (const [start, end] of spans.reverse()) {
        output = `${output.slice(0, start)}/* @__PURE__ */ (() => (${output.slice(start, end)}))()${output.slice(end)}`;
      }
      return { code: output, map: null };
    },
  };
}

export default defineConfig({
  define: {
    // The version the client reports in X-Client-Version (src/config/env.ts reads it).
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(
      process.env.VITE_APP_VERSION ?? packageJson.version,
    ),
  },
  plugins: [
    pureSharedInitialisers(),
    react(),
    tailwindcss(),
    VitePWA({
      strategies: 'generateSW',
      filename: 'sw.js',
      registerType: 'prompt',
      // The CSP forbids inline scripts: the app registers the worker itself (src/app/service-worker.ts),
      // only in production builds and only while the `pwaSupport` flag is on.
      injectRegister: false,
      includeAssets: ['favicon.svg', 'robots.txt', 'icons/apple-touch-icon.png'],
      manifest: {
        name: APP_NAME,
        short_name: 'Blood Donation',
        description:
          'Find blood donors and request blood in an emergency, with complete privacy for donors.',
        lang: 'en',
        dir: 'ltr',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        categories: ['health', 'medical'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/icon-maskable-192.png',
            sizes: '192x192',
            type: 'image/png',
            purpose: 'maskable',
          },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      workbox: {
        // The app shell and every hashed asset (each page, each translation) are precached.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,txt}'],
        navigateFallback: '/index.html',
        // API replies are never cached: no runtime caching, and navigations to them skip the shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/healthz$/, /^\/readyz$/],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: {
    proxy: {
      '/api': API_TARGET,
      '/healthz': API_TARGET,
      '/readyz': API_TARGET,
    },
  },
  preview: {
    proxy: {
      '/api': API_TARGET,
      '/healthz': API_TARGET,
      '/readyz': API_TARGET,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: lets scripts/measure-initial-js.mjs find what the home page loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Only what the first page needs: a library part that lazy screens alone use
            // (mutations, say) stays with them instead of weighing on every first load.
            ...VENDOR_CHUNKS.map((chunk) => ({ ...chunk, tags: ['$initial' as const], priority: 10 })),
            // The app code every page loads (shell, session, header) as one chunk rather than a
            // dozen small shared ones: fewer requests and better compression on slow networks.
            // Lazy screens keep their own chunks.
            // Small parts several lazy screens share (dialog, switch, pagination, loading and
            // error states, date and file helpers): one request instead of eight on a slow network.
            {
              name: 'kit',
              test: /[\\/]src[\\/](components[\\/](dialog|switch|pagination|query-state)|lib[\\/](dates|save-file|use-now|api-upload))\.tsx?$/,
              priority: 4,
            },
            {
              name: 'shell',
              tags: ['$initial'],
              test: isShellModule,
              priority: 5,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
