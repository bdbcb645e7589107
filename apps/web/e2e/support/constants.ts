/** Where the browser tests' servers listen and who the seeded administrator is. */
export const E2E_PORT = 3111;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password-1' };
export const E2E_SMTP_PORT = 3125;
export const E2E_MAIL_URL = 'http://127.0.0.1:3126';
