import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { afterLoad } from './app/pwa/after-load';
import { EARLY_INSTALL_PROMPT } from './app/pwa/early-install-prompt';
import { createAppRouter } from './app/router';
import { configQueryOptions } from './config/use-config';
import { initI18n } from './i18n';
import { createQueryClient } from './lib/query-client';

// The browser may offer installation before the install prompt's code has loaded: keep the offer.
addEventListener(
  'beforeinstallprompt',
  (event) => {
    event.preventDefault();
    (window as unknown as Record<string, Event>)[EARLY_INSTALL_PROMPT] = event;
  },
  { once: true },
);

/** Everything the first page does not need (app/pwa/start.ts): one lazy chunk. */
const loadPwa = () => import('./app/pwa/start');

// The installed app, restarted: back to where the user was (app/pwa/restore.ts) before routing.
if (matchMedia('(display-mode: standalone)').matches) {
  await loadPwa().then(
    (pwa) => pwa.restoreInstalledAppState(),
    () => {},
  );
}

const queryClient = createQueryClient();
// Flags decide parts of the header and home page: ask for them before the first render.
void queryClient.prefetchQuery(configQueryOptions);

// English is bundled; another stored language loads first, so the first paint is already in it.
await initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const router = createAppRouter();
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);

// Logging, web vitals, the service worker and navigation preloading: after the first page.
afterLoad(() => void loadPwa().then((pwa) => pwa.start({ queryClient, router })));
