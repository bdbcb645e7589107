/**
 * Where the browser tests' servers listen and who the seeded administrator is. E2E_PORT moves the
 * whole set (app, SMTP capture at +14, its HTTP side at +15), so two runs can share a machine.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3111);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password-1' };
export const E2E_SMTP_PORT = E2E_PORT + 14;
export const E2E_MAIL_HTTP_PORT = E2E_PORT + 15;
export const E2E_MAIL_URL = `http://127.0.0.1:${E2E_MAIL_HTTP_PORT}`;
/** The harness's record of codes sent to phones (scripts/e2e-server.mjs). */
export const E2E_SMS_HTTP_PORT = E2E_PORT + 16;
export const E2E_SMS_URL = `http://127.0.0.1:${E2E_SMS_HTTP_PORT}`;
