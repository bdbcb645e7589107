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
/**
 * The phone providers (apps/server/src/test/e2e-phone-peers.ts): an SMPP SMSC, a WhatsApp Cloud
 * API, and the HTTP side the tests read them through.
 */
export const E2E_PHONE_HTTP_PORT = E2E_PORT + 16;
export const E2E_PHONE_URL = `http://127.0.0.1:${E2E_PHONE_HTTP_PORT}`;
export const E2E_SMPP_PORT = E2E_PORT + 17;
export const E2E_WHATSAPP_PORT = E2E_PORT + 18;
/** The app server's movable clock (scripts/lib/e2e-clock.mjs): POST {offsetMs} to move it. */
export const E2E_CLOCK_PORT = E2E_PORT + 19;
export const E2E_CLOCK_URL = `http://127.0.0.1:${E2E_CLOCK_PORT}/clock`;
/** What the app and the Cloud API peer share (test values, not secrets). */
export const E2E_WHATSAPP = {
  token: 'e2e-whatsapp-token',
  appSecret: 'e2e-whatsapp-app-secret',
  phoneNumberId: '100200300400',
  verifyToken: 'e2e-verify-token',
};
/** DLT ids the SMSC peer must see on every submit_sm (made-up, of the registry's shape). */
export const E2E_DLT = {
  entityId: '1101100000000000001',
  templates: {
    donor_alert: '1107100000000000001',
    reply: '1107100000000000002',
    phone_code: '1107100000000000003',
    request_received: '1107100000000000004',
    donor_coming: '1107100000000000005',
  },
};
