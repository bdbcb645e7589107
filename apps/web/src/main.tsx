import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { afterLoad } from './app/pwa/after-load';
import { EARLY_INSTALL_PROMPT } from './app/pwa/early-install-prompt';
import { isStandaloneDisplay } from './app/pwa/standalone';
import { createAppRouter, routes } from './app/router';
import { CONFIG_QUERY_KEY, configQueryOptions, normalizeConfig } from './config/use-config';
import { hasSessionHint } from './features/auth';
import { detectLanguage, initI18n } from './i18n';
import { createQueryClient } from './lib/query-client';
import { createRoutePreloaders } from './lib/route-preloaders';
import { makeZodJitless } from './lib/zod-jitless';
import { watchPrerenderedForms } from './lib/typed-before-hydration';

// Before any form's schema runs: zod must not probe for eval, which the CSP forbids.
makeZodJitless();

// The browser may offer installation before the install prompt's code has loaded: keep the offer.
addEventListener(
  'beforeinstallprompt',
  (event) => {
    event.preventDefault();
    (window as unknown as Record<string, Event>)[EARLY_INSTALL_PROMPT] = event;
  },
  { once: true },
);

function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Everything the first page does not need (app/pwa/start.ts): one lazy chunk. */
const loadPwa = () => import('./app/pwa/start');

const isInstalledApp = isStandaloneDisplay();

// The installed app, restarted: back to where the user was (app/pwa/restore.ts) before routing.
if (isInstalledApp) {
  await loadPwa().then(
    (pwa) => pwa.restoreInstalledAppState(),
    () => {},
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// What is typed into a prerendered form from now until React has it (issue #18).
if (root.dataset.prerendered) watchPrerenderedForms();

/**
 * Public pages arrive already rendered (src/prerender): English, signed out, a browser tab, the
 * server's configuration and no other data. When this visit is exactly that, React adopts the
 * page instead of drawing it again, so the reader sees content before any script has run.
 * Otherwise the page is rendered as usual and replaces the prerendered one on its first commit.
 */
const isPrerenderedVisit =
  root.dataset.prerendered === location.pathname &&
  !location.search &&
  detectLanguage() === 'en' &&
  !hasSessionHint() &&
  !isInstalledApp;

const queryClient = createQueryClient();
// Flags decide parts of the header and home page. A prerendered page carries the configuration
// it was drawn with (the server's own, as `GET /config` gives it): the first render uses it too.
// Other pages ask for it before their first render.
const embeddedConfig = document.getElementById('bdms-config')?.textContent;
if (embeddedConfig) {
  try {
    queryClient.setQueryData(CONFIG_QUERY_KEY, normalizeConfig(JSON.parse(embeddedConfig)));
  } catch {
    // Unreadable: asked for below, like on any other page.
  }
}
if (!queryClient.getQueryData(CONFIG_QUERY_KEY)) void queryClient.prefetchQuery(configQueryOptions);

// English is bundled; another stored language loads first, so the first paint is already in it.
await initI18n();
// A prerendered page's code and texts first, so that it is adopted in one pass.
if (isPrerenderedVisit) await createRoutePreloaders(routes)(location.pathname)?.().catch(() => {});

// Start-up in short tasks: the browser can paint and answer a tap between them.
await yieldToMain();
const router = createAppRouter();
await yieldToMain();
const app = (
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>
);
if (isPrerenderedVisit) {
  // As a transition, hydration works in short slices (a default update would run in one long
  // task): a tap on the page is answered while it is adopted.
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}

// Logging, web vitals, the service worker and navigation preloading: after the first page.
afterLoad(() => void loadPwa().then((pwa) => pwa.start({ queryClient, router })));
