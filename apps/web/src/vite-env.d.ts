/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** The app's version, sent as X-Client-Version (defaults to apps/web/package.json's version). */
  readonly VITE_APP_VERSION?: string;
  /** Support address used until `GET /api/v1/config` answers (optional). */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
