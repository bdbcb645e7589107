import common from './locales/en/common.json';
import errors from './locales/en/errors.json';
import home from './locales/en/home.json';
import pages from './locales/en/pages.json';
import showcase from './locales/en/showcase.json';

/** English is the source language: bundled with the app, and the fallback for every other one. */
export const EN_RESOURCES = { common, errors, home, pages, showcase } as const;

export type Namespace = keyof typeof EN_RESOURCES;
export const NAMESPACES = Object.keys(EN_RESOURCES) as Namespace[];
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;
