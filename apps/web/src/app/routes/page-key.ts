import type pages from '../../i18n/locales/en/pages.json';

/** Every page with a bundled title (a page that fails to load is named by it). */
export type PageKey = keyof typeof pages;
