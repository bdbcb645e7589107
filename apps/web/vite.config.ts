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

/** The chunks the entry loads itself (see `codeSplitting` below): never worth a preload hint. */
const INITIAL_CHUNK =
  /(^|\/)assets\/(react|router|query|i18n|shell|rolldown-runtime)-[\w-]+\.(js|css)$/;

/**
 * Lazy chunks that get no list of dependencies to preload with them: every list is a few dozen
 * bytes of hashed file names in the first download, worth it only where a visitor waits for the
 * chunk on a cold cache. Screens behind sign-in come after a first visit (by then the service
 * worker holds every chunk, and signing in preloads the dashboard); the toasts and the install
 * and update layer load while the browser is idle. Without a list a chunk's imports are still
 * fetched, only after the chunk itself.
 */
const NO_PRELOAD_LIST =
  /(^|\/)assets\/(admin-dashboard|admin-verification|admin-requests|admin-reports|donor-area|onboarding|notifications|hospital-dashboard|profile|components-showcase|toast-viewport|pwa-layer)-[\w-]+\.js$/;

/**
 * The app code every page loads (shell, session, header, translations) goes in one chunk rather
 * than a dozen small shared ones: fewer requests and better compression on slow networks. Lazy
 * screens keep their own chunks; the entry (index.html → src/main.tsx) stays the entry.
 */
function isShellModule(id: string): boolean {
  return !id.includes('node_modules') && !/(\.html|[\\/]src[\\/]main\.tsx)(\?.*)?$/.test(id);
}

/**
 * Modules every page's screen loads although no initial module imports them: each would be a
 * separate tiny chunk fetched with the first page. `usePageMeta` sets every page's title.
 */
const SHELL_EXTRAS = ['src/lib/use-page-meta.ts'];

/**
 * Makes `SHELL_EXTRAS` part of what the entry loads (a bare import, nothing runs), so the shell
 * group's `$initial` tag takes them into the shell chunk.
 */
function shellExtras(): Plugin {
  return {
    name: 'bdms:shell-extras',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]main\.tsx$/.test(id)) return null;
      const imports = SHELL_EXTRAS.map((path) => `import ${JSON.stringify(`/${path}`)};`);
      return { code: `${code}\n${imports.join('\n')}\n`, map: null };
    },
  };
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

/**
 * React Router 7 publishes a development and a production build but its package exports only
 * the development one, whose dev-only warnings (and their texts) a bundler cannot drop: they
 * are switched by a constant, not by `process.env.NODE_ENV`. Production builds take the
 * production files (the same code with `ENABLE_DEV_WARNINGS = false`): ~0.6 KB gzip less on
 * every first load. Tests and the dev server keep the warnings.
 */
function reactRouterProductionBuild(): Plugin {
  const DEVELOPMENT_DIR = /([\\/]react-router[\\/]dist[\\/])development([\\/])/;
  return {
    name: 'bdms:react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'react-router') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !DEVELOPMENT_DIR.test(resolved.id)) return resolved;
      return { ...resolved, id: resolved.id.replace(DEVELOPMENT_DIR, '$1production$2') };
    },
  };
}

/**
 * react-i18next imports `useSyncExternalStore` from `use-sync-external-store/shim`, a fallback
 * for React < 18 that React 19 never runs (the shim hands over to React's own hook when it
 * exists) but that still ships, with its CommonJS wrapper, on every first load (~0.3 KB gzip).
 * Production builds take React's hook directly: the same function the shim would return.
 */
function reactOwnSyncExternalStore(): Plugin {
  const SHIM = /^use-sync-external-store\/shim(\/index(\.js)?)?$/;
  const VIRTUAL_ID = '\0bdms:use-sync-external-store-shim';
  return {
    name: 'bdms:react-own-sync-external-store',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (SHIM.test(source) ? VIRTUAL_ID : null),
    load: (id) => (id === VIRTUAL_ID ? "export { useSyncExternalStore } from 'react';" : null),
  };
}

export default defineConfig(({ isSsrBuild = false }) => ({
  define: {
    // The version the client reports in X-Client-Version (src/config/env.ts reads it).
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(
      process.env.VITE_APP_VERSION ?? packageJson.version,
    ),
  },
  plugins: [
    shellExtras(),
    reactRouterProductionBuild(),
    reactOwnSyncExternalStore(),
    pureSharedInitialisers(),
    react(),
    tailwindcss(),
    // The prerendering build (src/prerender, `vite build --ssr`) makes one module for Node: no
    // worker, no manifest, no copy of public/.
    !isSsrBuild &&
      VitePWA({
        // Our own worker (src/sw/sw.ts): push, notification clicks, navigation preload, the offline
        // page and runtime caching need code, not configuration (docs/decisions/003-*.md).
        strategies: 'injectManifest',
        srcDir: 'src/sw',
        filename: 'sw.ts',
        registerType: 'prompt',
        // The CSP forbids inline scripts: the app registers the worker itself (src/app/service-worker.ts),
        // only in production builds and only while the `pwaSupport` flag is on.
        injectRegister: false,
        manifest: {
          id: '/',
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
          // Shown by the browser's richer install dialog: the built app at 1280×720 and 390×844.
          screenshots: [
            {
              src: '/app-screenshots/home-wide.png',
              sizes: '1280x720',
              type: 'image/png',
              form_factor: 'wide',
              label: 'The home page: find blood donors or register as a donor',
            },
            {
              src: '/app-screenshots/home-narrow.png',
              sizes: '390x844',
              type: 'image/png',
              form_factor: 'narrow',
              label: 'The home page on a phone',
            },
          ],
        },
        injectManifest: {
          // The app shell, the offline page and every hashed asset (each page, each translation).
          // Store screenshots are for the install dialog only: not downloaded by every visitor.
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,txt}'],
          globIgnores: ['app-screenshots/**', '.vite/**'],
          // A classic script: registered without `type: 'module'`, so older browsers run it too.
          rollupFormat: 'iife',
        },
      }),
  ],
  publicDir: isSsrBuild ? false : 'public',
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
    modulePreload: {
      // Every browser the product targets preloads modules itself (Chromium since 2018, Safari 17,
      // Firefox 115); older ones simply fetch each chunk when it is imported. The polyfill would
      // cost ~0.35 KB gzip on every first load.
      polyfill: false,
      // The entry's own chunks are loaded before any lazy import can run: listing them again as
      // preloads of every lazy chunk only adds bytes to the first download.
      // The entry's own lazy imports (app/pwa/start.ts) run after the page has loaded: no
      // preload list for them in the entry either. A chunk is not listed among its own
      // dependencies: `import()` asks for it at once anyway (Vite's helper waits for CSS only).
      resolveDependencies: (filename, dependencies, { hostId }) =>
        /(^|\/)assets\/index-[\w-]+\.js$/.test(hostId) || NO_PRELOAD_LIST.test(filename)
          ? []
          : dependencies.filter(
              (dependency) => dependency !== filename && !INITIAL_CHUNK.test(dependency),
            ),
    },
    rolldownOptions: isSsrBuild
      ? // Node's own module format whatever the package says, in a folder the server never
        // serves (dist/.ssr: dot files are not served).
        { output: { entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } }
      : {
          output: {
            codeSplitting: {
              groups: [
                // Only what the first page needs: a library part that lazy screens alone use
                // (mutations, say) stays with them instead of weighing on every first load.
                ...VENDOR_CHUNKS.map((chunk) => ({
                  ...chunk,
                  tags: ['$initial' as const],
                  priority: 10,
                })),
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
                // Everything that runs after the first page (install and update prompts, logger, web
                // vitals glue, preloading, restoration): one lazy chunk, one request.
                {
                  name: 'pwa',
                  test: /([\\/]src[\\/](app[\\/]pwa[\\/](?!after-load|early-install-prompt|standalone)|lib[\\/](preload|logger)[\\/]|sw[\\/])|[\\/]packages[\\/]shared[\\/]src[\\/](pwa|client-logs)\.ts)/,
                  priority: 3,
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
    // Component tests type whole forms with user-event; on a 2-core machine running the API tests
    // beside them 5 s was not always enough (a test that times out keeps typing into the next).
    testTimeout: 20_000,
  },
}));
