/** The product's constants (product spec sections 1, 3 and 9). */

export const APP_NAME = 'Blood Donation Management System';
/** Used in storage names that "carry the product's name" (spec section 9). */
export const APP_SLUG = 'bdms';

export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export type BloodType = (typeof BLOOD_TYPES)[number];

export const ROLES = ['donor', 'admin', 'hospital'] as const;
export type Role = (typeof ROLES)[number];

export const DONOR_STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;
export type DonorStatus = (typeof DONOR_STATUSES)[number];

export const URGENCIES = ['urgent', 'critical'] as const;
export type Urgency = (typeof URGENCIES)[number];

/**
 * Supported languages: the spec's ten, then the Indian languages with the most speakers after
 * Hindi (Census 2011: Bengali, Marathi, Telugu, Tamil). English is the fallback, key by key.
 */
export const LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'hi',
  'ar',
  'zh',
  'pt',
  'ru',
  'ja',
  'bn',
  'mr',
  'te',
  'ta',
] as const;
export type Language = (typeof LANGUAGES)[number];
/**
 * Languages the interface is (being) translated into. A language here may still lack files
 * (a translation in progress): every missing key falls back to English.
 */
export const TRANSLATED_LANGUAGES = [
  'en',
  'es',
  'hi',
  'bn',
  'mr',
  'te',
  'ta',
] as const satisfies readonly Language[];
/**
 * Languages the server writes e-mails, SMS and notifications in; any other stored language gets
 * English (the interface language may be one the messages are not written in).
 */
export const MESSAGE_LANGUAGES = [
  'en',
  'es',
  'hi',
  'bn',
  'mr',
  'te',
  'ta',
] as const satisfies readonly Language[];
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];
export const RTL_LANGUAGES = ['ar'] as const satisfies readonly Language[];
export const FALLBACK_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'preferred-language';

/** Native names, shown in the language switcher whatever the current language is. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  hi: 'हिन्दी',
  ar: 'العربية',
  zh: '中文',
  pt: 'Português',
  ru: 'Русский',
  ja: '日本語',
  bn: 'বাংলা',
  mr: 'मराठी',
  te: 'తెలుగు',
  ta: 'தமிழ்',
};

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const SESSION = {
  maxAgeMs: 30 * DAY,
  /**
   * The spec's "session refresh threshold" (extend a session in its last day). Unused: refresh
   * tokens are not rotated and end with the session (docs/decisions/008-session-refresh.md).
   */
  refreshThresholdMs: 1 * DAY,
  backgroundCheckMs: 1 * HOUR,
  visibilityCheckDelayMs: 1 * SECOND,
  periodicCheckMs: 30 * MINUTE,
  periodicRefreshBelowMs: 15 * MINUTE,
  userCacheMs: 300_000,
  /** Access tokens live 1 hour; `expiresIn` is in seconds. */
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlMs: 30 * DAY,
} as const;

export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  user: 'user',
  authState: 'authState',
  session: `${APP_SLUG}-session`,
  appState: `${APP_SLUG}-app-state`,
  theme: `${APP_SLUG}-theme`,
  pwaInstallDismissed: 'pwa_install_dismissed',
  pwaInstallInfo: 'pwa_install_info',
  pwaPromptDismissedSession: 'pwa-prompt-dismissed',
  pwaInstallDismissedSession: 'pwa-install-dismissed',
  language: LANGUAGE_STORAGE_KEY,
} as const;

export const TOAST_DURATION_MS = {
  default: 5000,
  success: 5000,
  info: 5000,
  error: 7000,
  warning: 6000,
} as const;

export const ALERT = {
  dismissCallbackDelayMs: 200,
  animationSeconds: 0.2,
} as const;

export const ALERT_POSITIONS = [
  'top-right',
  'top-left',
  'bottom-right',
  'bottom-left',
  'top-center',
  'bottom-center',
] as const;
export type AlertPosition = (typeof ALERT_POSITIONS)[number];

export const CHUNK_LOADING = {
  maxRetries: 3,
  baseDelayMs: 1000,
  timeoutMs: 120_000,
} as const;

export const MOTION = {
  pageTransitionS: 0.3,
  scaleInS: 0.2,
  staggerS: 0.1,
  staggerFastS: 0.05,
  reducedMotionS: 0.01,
} as const;

export const CONTENT_DEFAULTS = {
  featuredLimit: 3,
  popularLimit: 5,
  analyticsRange: '30d',
  currency: 'USD',
} as const;
