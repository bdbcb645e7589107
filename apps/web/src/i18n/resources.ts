import common from './locales/en/common.json';
import errors from './locales/en/errors.json';
import home from './locales/en/home.json';
import type admin from './locales/en/admin.json';
import type auth from './locales/en/auth.json';
import type donors from './locales/en/donors.json';
import type hospital from './locales/en/hospital.json';
import type notifications from './locales/en/notifications.json';
import type onboarding from './locales/en/onboarding.json';
import type pages from './locales/en/pages.json';
import type requests from './locales/en/requests.json';
import type showcase from './locales/en/showcase.json';
import type education from './locales/en/education.json';
import type facilities from './locales/en/facilities.json';
import type site from './locales/en/site.json';
import type pwa from './locales/en/pwa.json';

/** English is the source language: bundled with the app, and the fallback for every other one. */
export const EN_RESOURCES = { common, errors, home } as const;

/**
 * Namespaces only some screens need, downloaded with those screens in every language (English
 * too), so the first page load stays small. Their screens load them before rendering
 * (`loadNamespaces` in ./index.ts). `pages` (every page's title, description and intro) is one of
 * them: every screen loads it; the first load only needs the page names (`common:pageNames`).
 */
export const LAZY_NAMESPACES = [
  'pages',
  'auth',
  'showcase',
  'admin',
  'donors',
  'onboarding',
  'notifications',
  'requests',
  'hospital',
  'education',
  'facilities',
  'site',
  'pwa',
] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];

/** Every namespace's English texts, for typed keys. */
export type AppResources = typeof EN_RESOURCES & {
  pages: typeof pages;
  auth: typeof auth;
  showcase: typeof showcase;
  admin: typeof admin;
  donors: typeof donors;
  onboarding: typeof onboarding;
  notifications: typeof notifications;
  requests: typeof requests;
  hospital: typeof hospital;
  education: typeof education;
  facilities: typeof facilities;
  site: typeof site;
  pwa: typeof pwa;
};

export type Namespace = keyof AppResources;
export const BUNDLED_NAMESPACES = Object.keys(EN_RESOURCES) as (keyof typeof EN_RESOURCES)[];
export const NAMESPACES: Namespace[] = [...BUNDLED_NAMESPACES, ...LAZY_NAMESPACES];
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;
