// Fault test (issue #9): the SMTP server goes away (kill -9) while the built server keeps
// creating mail (password resets, sign-in codes, hospital invitations, contact messages); it
// comes back on the same port; every message must then be delivered exactly once, by the mail
// outbox's own retries (apps/server/src/features/notifications/mail), with no restart of the app server.
// The outbox waits 1 minute after a first failure, so this test takes a little over a minute.
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  ADMIN,
  adminToken,
  api,
  check,
  ensureServerBuilt,
  fakeWebDist,
  freePort,
  nextPhone,
  removeDir,
  ROOT,
  runFault,
  sleep,
  startServer,
  tempDir,
} from './lib.mjs';

const SUPPORT = 'support@faults.example';
const DONORS = 4;
const DELIVERY_TIMEOUT_MS = 180_000;

/** scripts/e2e-mail-server.mjs as its own process, so "stopped" can mean kill -9. */
async function startMailServer(smtpPort, httpPort) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/e2e-mail-server.mjs')], {
    env: { ...process.env, E2E_SMTP_PORT: String(smtpPort), E2E_MAIL_HTTP_PORT: String(httpPort) },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${httpPort}`;
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not up yet
    }
    await sleep(50);
  }
  return {
    async messages() {
      return (await fetch(`${base}/messages`)).json();
    },
    async kill() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const countByRecipient = (messages) => {
  const counts = {};
  for (const message of messages) {
    for (const to of message.to) counts[to] = (counts[to] ?? 0) + 1;
  }
  return counts;
};

runFault('SMTP outage', async () => {
  ensureServerBuilt();
  const smtpPort = await freePort();
  const httpPort = await freePort();
  const dataDir = tempDir('smtp-data');
  const webDir = fakeWebDist();
  let mail = await startMailServer(smtpPort, httpPort);
  const server = await startServer({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SUPPORT_EMAIL: SUPPORT,
    RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1',
  });
  try {
    const token = await adminToken(server.url);
    const stamp = Date.now().toString(36);
    const donors = [];
    for (let i = 0; i < DONORS; i += 1) {
      const email = `smtp-${stamp}-${i}@faults.example`;
      const res = await api(server.url, 'POST', '/api/v1/auth/register', {
        body: {
          email,
          password: 'donor-password-1',
          fullName: `Outage Donor ${i}`,
          phone: nextPhone(),
          bloodType: 'A+',
          dateOfBirth: '1990-04-01',
          gender: 'female',
          city: 'Pune',
          state: 'Maharashtra',
          consent: true,
        },
      });
      check(res.status === 201, `registration: ${res.status} ${res.text}`, server);
      donors.push(email);
    }

    // Before the outage: delivery works, and this message must not be sent again later.
    const before = await api(server.url, 'POST', '/api/v1/auth/reset-password', {
      body: { email: donors[0] },
    });
    check(before.status === 200, `reset before the outage: ${before.status}`, server);
    const deadline = Date.now() + 20_000;
    while ((await mail.messages()).length < 1 && Date.now() < deadline) await sleep(100);
    const firstLife = await mail.messages();
    check(
      firstLife.length === 1,
      `before the outage ${firstLife.length} messages arrived, expected 1`,
    );

    // The SMTP server dies; the app keeps accepting what sends mail.
    await mail.kill();
    const outageStarted = Date.now();
    const expected = {};
    const expect = (to, n = 1) => (expected[to] = (expected[to] ?? 0) + n);
    for (const email of donors.slice(1)) {
      const reset = await api(server.url, 'POST', '/api/v1/auth/reset-password', {
        body: { email },
      });
      check(reset.status === 200, `reset during the outage: ${reset.status} ${reset.text}`, server);
      const code = await api(server.url, 'POST', '/api/v1/auth/login-otp', { body: { email } });
      check(
        code.status === 200,
        `sign-in code during the outage: ${code.status} ${code.text}`,
        server,
      );
      expect(email, 2);
    }
    for (let i = 0; i < 2; i += 1) {
      const hospital = {
        name: `Outage Hospital ${stamp} ${i}`,
        email: `hospital-${stamp}-${i}@faults.example`,
        phone: nextPhone(),
        city: 'Pune',
        state: 'Maharashtra',
      };
      const res = await api(server.url, 'POST', '/api/v1/admin/hospitals', {
        body: hospital,
        token,
      });
      check(
        res.status === 201,
        `hospital invitation during the outage: ${res.status} ${res.text}`,
        server,
      );
      expect(hospital.email);
      const contact = await api(server.url, 'POST', '/api/v1/contact', {
        body: {
          name: `Sender ${i}`,
          email: `sender-${i}@faults.example`,
          subject: `Outage message ${i}`,
          message: 'Sent while the mail server was down.',
        },
      });
      check(
        contact.status === 201,
        `contact during the outage: ${contact.status} ${contact.text}`,
        server,
      );
      expect(SUPPORT);
    }
    const total = Object.values(expected).reduce((a, b) => a + b, 0);

    // Every one was tried and failed, and waits in the outbox.
    let status;
    const triedBy = Date.now() + 20_000;
    do {
      await sleep(250);
      status = (await api(server.url, 'GET', '/api/v1/admin/email/status', { token })).json.data;
    } while ((status.queued < total || !status.lastError) && Date.now() < triedBy);
    check(
      status.queued === total && status.lastError,
      `during the outage the outbox holds ${status.queued} (expected ${total}), last error ${status.lastError}`,
      server,
    );
    const lastError = status.lastError;

    // The SMTP server comes back on the same port; the outbox must deliver each message once.
    await sleep(2_000);
    mail = await startMailServer(smtpPort, httpPort);
    const back = Date.now();
    let received = [];
    while (Date.now() - back < DELIVERY_TIMEOUT_MS) {
      received = await mail.messages();
      if (received.length >= total) break;
      await sleep(500);
    }
    const deliveredAfterMs = Date.now() - back;
    // Settled when nothing is queued (a sent row is never claimed again), plus a moment for
    // anything still on the wire.
    const settleBy = Date.now() + 35_000;
    do {
      await sleep(1_000);
      status = (await api(server.url, 'GET', '/api/v1/admin/email/status', { token })).json.data;
    } while (status.queued > 0 && Date.now() < settleBy);
    await sleep(3_000);
    received = await mail.messages();
    const counts = countByRecipient(received);
    check(
      JSON.stringify(Object.entries(counts).sort()) ===
        JSON.stringify(Object.entries(expected).sort()),
      `delivered after the outage ${JSON.stringify(counts)}, expected each once: ${JSON.stringify(expected)}`,
      server,
    );
    check(
      status.queued === 0 && status.failed24h === 0,
      `outbox after recovery: ${JSON.stringify(status)}`,
      server,
    );
    const ready = await api(server.url, 'GET', '/readyz');
    check(ready.status === 200, 'the app server is not ready after the outage', server);
    console.log(
      `  ${total} messages made during a ${((back - outageStarted) / 1000).toFixed(1)} s outage ` +
        `(last error: ${String(lastError).slice(0, 60)}); all delivered once ` +
        `${(deliveredAfterMs / 1000).toFixed(1)} s after SMTP came back; none sent twice, none given up`,
    );
  } finally {
    await server.stop();
    await mail.kill().catch(() => {});
    removeDir(dataDir);
    removeDir(webDir);
  }
});
