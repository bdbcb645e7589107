import common from './locales/en/common.json';
import errors from './locales/en/errors.json';
import home from './locales/en/home.json';
import pages from './locales/en/pages.json';
import type auth from './locales/en/auth.json';
import type showcase from './locales/en/showcase.json';

/** English is the source language: bundled with the app, and the fallback for every other one. */
export const EN_RESOURCES = { common, errors, home, pages } as const;

/**
 * Namespaces only some screens need, downloaded with those screens in every language (English
 * too), so the first page load stays small. Their screens load them before rendering
 * (`loadNamespaces` in ./index.ts).
 */
export const LAZY_NAMESPACES = ['auth', 'showcase'] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];

/** Every namespace's English texts, for typed keys. */
export type AppResources = typeof EN_RESOURCES & { auth: typeof auth; showcase: typeof showcase };

export type Namespace = keyof AppResources;
export const BUNDLED_NAMESPACES = Object.keys(EN_RESOURCES) as (keyof typeof EN_RESOURCES)[];
export const NAMESPACES: Namespace[] = [...BUNDLED_NAMESPACES, ...LAZY_NAMESPACES];
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;
