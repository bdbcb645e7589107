import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { i18n, initI18n, loadNamespaces } from '../i18n';
import { LAZY_NAMESPACES } from '../i18n/resources';

// Routes are lazy: the first render of a screen in a file waits for Vite to transform its
// modules, which can take over a second on a busy machine. Only an upper bound.
configure({ asyncUtilTimeout: 4000 });

beforeAll(async () => {
  await initI18n('en');
  // Screens load these before rendering (router.tsx); components rendered alone need them too.
  await loadNamespaces(LAZY_NAMESPACES);
});

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  // Every test starts with an empty IndexedDB (the session store).
  globalThis.indexedDB = new IDBFactory();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

// jsdom does not scroll; React Router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
