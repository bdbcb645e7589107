import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { i18n, initI18n } from '../i18n';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

// jsdom does not scroll; React Router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};

afterEach(() => {
  vi.restoreAllMocks();
});
