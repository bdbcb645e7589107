import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  LANGUAGES,
  RTL_LANGUAGES,
  STORAGE_KEYS,
  TRANSLATED_LANGUAGES,
  type Language,
} from '@bdms/shared';
import { storage } from '../lib/storage';
import {
  BUNDLED_NAMESPACES,
  DEFAULT_NAMESPACE,
  EN_RESOURCES,
  type LazyNamespace,
} from './resources';

export const i18n = i18next;

/**
 * Other translations are separate chunks, downloaded only when chosen. Languages without files
 * (fr, de, ar, zh, pt, ru, ja, and bn, mr, te, ta until their translations land) read as empty
 * and fall back to English key by key. English
 * namespaces that are not bundled (LAZY_NAMESPACES) are chunks too.
 */
const lazyLocales = {
  ...import.meta.glob<ResourceKey>(['./locales/*/*.json', '!./locales/en/*.json'], {
    import: 'default',
  }),
  ...import.meta.glob<ResourceKey>(
    [
      './locales/en/pages.json',
      './locales/en/auth.json',
      './locales/en/showcase.json',
      './locales/en/admin.json',
      './locales/en/donors.json',
      './locales/en/onboarding.json',
      './locales/en/notifications.json',
      './locales/en/requests.json',
      './locales/en/hospital.json',
      './locales/en/education.json',
      './locales/en/facilities.json',
      './locales/en/site.json',
      './locales/en/pwa.json',
    ],
    { import: 'default' },
  ),
};

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = lazyLocales[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

export function isRtl(language: string): boolean {
  return (RTL_LANGUAGES as readonly string[]).includes(language);
}

/** The stored choice, else the browser's language when supported, else English. */
export function detectLanguage(): Language {
  const stored = storage.get(STORAGE_KEYS.language);
  if (isLanguage(stored)) return stored;
  const preferred =
    typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of preferred) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}

/**
 * Whether the interface has text in this language: a translated language whose files are in the
 * build (bn, mr, te, ta are translated languages before their files land). Else it is all
 * English.
 */
export function isTranslated(language: string): boolean {
  if (language === FALLBACK_LANGUAGE) return true;
  if (!(TRANSLATED_LANGUAGES as readonly string[]).includes(language)) return false;
  return Object.keys(lazyLocales).some((path) => path.startsWith(`./locales/${language}/`));
}

/**
 * `<html lang dir>` says the chosen language (lang="ar" dir="rtl"). A language with no
 * translation files shows English throughout, so `<body>` (which holds the app and its portals:
 * dialogs, toasts) says lang="en" dir="ltr": English is read with English pronunciation and laid
 * out left to right inside an Arabic page. See docs/decisions/006.
 */
function applyDocumentLanguage(language: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
  const body = document.body;
  if (!body) return;
  if (isTranslated(language)) {
    body.removeAttribute('lang');
    body.removeAttribute('dir');
  } else {
    body.lang = FALLBACK_LANGUAGE;
    body.dir = 'ltr';
  }
}

let initialised: Promise<unknown> | null = null;

export function initI18n(language: Language = detectLanguage()): Promise<unknown> {
  if (initialised) return initialised;
  i18next.on('languageChanged', applyDocumentLanguage);
  initialised = i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'languageOnly',
      ns: BUNDLED_NAMESPACES,
      defaultNS: DEFAULT_NAMESPACE,
      resources: { [FALLBACK_LANGUAGE]: EN_RESOURCES },
      // English is bundled; the backend fetches only what is missing.
      partialBundledLanguages: true,
      interpolation: { escapeValue: false }, // React escapes
      react: { useSuspense: false },
    });
  return initialised;
}

/** Switches the language and remembers the choice under `preferred-language`. */
export async function changeLanguage(language: Language): Promise<void> {
  storage.set(STORAGE_KEYS.language, language);
  await i18next.changeLanguage(language);
}

/** Downloads a lazy namespace (current language and English); screens await it before rendering. */
export async function loadNamespaces(namespaces: readonly LazyNamespace[]): Promise<void> {
  await i18next.loadNamespaces([...namespaces]);
}
