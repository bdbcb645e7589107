/**
 * The public pages' first paint, rendered by the server (apps/server/src/plugins/prerendered-
 * pages.ts loads this module, built by `vite build --ssr` into dist/.ssr/). The HTML is what a
 * visitor sees before any script has run; the browser then hydrates it (src/main.tsx). The tree
 * is the client's own (`<App>` in StrictMode, the same routes, a memory router at the page's
 * path) with the server's public configuration already in the query cache, as the page carries
 * it to the browser (`#bdms-config`): English, signed out, nothing else loaded yet.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createMemoryRouter } from 'react-router';
import type { PublicConfig } from '@bdms/shared';
import { App } from '../app/app';
import { routes } from '../app/router';
import { CONFIG_QUERY_KEY, normalizeConfig } from '../config/use-config';
import { initI18n } from '../i18n';
import { createQueryClient } from '../lib/query-client';

/**
 * Pages a visitor arrives at from outside (search, a shared link, the home screen) that look the
 * same for everyone signed out. Pages behind sign-in, and pages whose content depends on the
 * address (an article, a blood bank), are rendered in the browser only.
 */
export const PRERENDERED_PATHS: readonly string[] = [
  '/',
  '/about',
  '/contact',
  '/education',
  '/help',
  '/privacy',
  '/terms',
  '/emergency',
  '/blood-banks',
  '/login',
  '/register',
];

export async function renderPage(pathname: string, config: PublicConfig): Promise<string> {
  await initI18n('en');
  const queryClient = createQueryClient();
  queryClient.setQueryData(CONFIG_QUERY_KEY, normalizeConfig(config));
  const router = createMemoryRouter(routes, { initialEntries: [pathname] });
  try {
    const { prelude } = await prerender(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
      // Whole pages inline: no boundary outlined behind a fallback and a swapping script (the
      // CSP forbids inline scripts, and the first paint must be the page itself).
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    return await new Response(prelude).text();
  } finally {
    router.dispose();
    queryClient.clear();
  }
}
