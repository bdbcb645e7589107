/**
 * Build-time configuration. This is the only module that reads `import.meta.env.VITE_*`;
 * everything run-time (feature flags, the support address) comes from `GET /api/v1/config`.
 */
export const env = {
  appVersion: import.meta.env.VITE_APP_VERSION ?? '0.0.0',
  /** Used only until the server's config has loaded; the server's `supportEmail` wins. */
  supportEmail: import.meta.env.VITE_SUPPORT_EMAIL || null,
  /** Same-origin API; the dev server proxies it to the Fastify server. */
  apiBasePath: '/api/v1',
  isProduction: import.meta.env.PROD,
} as const;
