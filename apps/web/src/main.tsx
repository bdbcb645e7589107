import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/app';
import { createAppRouter } from './app/router';
import { registerServiceWorker } from './app/service-worker';
import { configQueryOptions } from './config/use-config';
import { initI18n } from './i18n';
import { createQueryClient } from './lib/query-client';

const queryClient = createQueryClient();
// Flags decide parts of the header and home page: ask for them before the first render.
void queryClient.prefetchQuery(configQueryOptions);

// English is bundled; another stored language loads first, so the first paint is already in it.
await initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={createAppRouter()} />
  </StrictMode>,
);

void registerServiceWorker(queryClient);
