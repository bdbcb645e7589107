// Issue #19: two BUILT servers on one fresh PostgreSQL database (the same secrets, separate
// DATA_DIRs), behind "a load balancer" that is this script choosing an instance per request.
// Shows: every outbox message delivered exactly once to a real SMTP peer; a timed job done once;
// limits shared (the 21st sign-in in a minute from one address refused whichever instance gets
// it); a document uploaded through one instance served and erased through the other; a flag
// switched on one seen on the other within 2 s; simultaneous requests from one phone make at
// most 3, identical ones 1; killing one instance mid-stream loses no acknowledged request.
// Runs when TEST_DATABASE_URL is set (part of `npm test` through scripts/faults/run.mjs).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import {
  ADMIN,
  adminToken,
  api,
  check,
  ensureServerBuilt,
  fakeWebDist,
  guestRequestBody,
  nextPhone,
  removeDir,
  runFault,
  scratchPostgres,
  sharedSecrets,
  sleep,
  startServer,
  tempDir,
} from './lib.mjs';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let addressSequence = 0;
/** A client address of its own (X-Forwarded-For from the loopback "proxy", TRUST_PROXY=loopback). */
const nextAddress = () => {
  addressSequence += 1;
  return `10.${(addressSequence >> 16) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
};
const from = (address) => ({ 'x-forwarded-for': address });

async function startSmtpPeer() {
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { messages, port: server.server.address().port, close: () => server.close() };
}

async function waitFor(what, condition, timeoutMs, server) {
  const started = Date.now();
  for (;;) {
    if (await condition()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) check(false, `timed out waiting for ${what}`, server);
    await sleep(50);
  }
}

runFault('two instances on one PostgreSQL', async () => {
  const database = await scratchPostgres();
  if (!database) return { skipped: 'TEST_DATABASE_URL is not set' };
  ensureServerBuilt();
  const smtp = await startSmtpPeer();
  const secrets = sharedSecrets();
  const dirs = [];
  const servers = [];
  const db = new pg.Client({ connectionString: database.url });
  const figures = {};
  try {
    const envFor = () => {
      const dataDir = tempDir('two-data');
      const webDir = fakeWebDist();
      dirs.push(dataDir, webDir);
      return {
        DATA_DIR: dataDir,
        WEB_DIST_DIR: webDir,
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: '5',
        ...secrets,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SUPPORT_EMAIL: 'support@two-instances.example',
        TRUST_PROXY: 'loopback',
      };
    };
    // Both start together: migrations, reference data and the first admin must hold.
    const [a, b] = await Promise.all([startServer(envFor()), startServer(envFor())]);
    servers.push(a, b);
    await db.connect();
    const token = await adminToken(a.url);
    const instances = [a, b];
    const pick = (i) => instances[i % 2];

    // 1. Outbox: 24 contact messages through both instances, each mailed to SUPPORT_EMAIL once.
    const tokens = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const marker = `two-instances-${randomUUID()}`;
        tokens.push(marker);
        const res = await api(pick(i).url, 'POST', '/api/v1/contact', {
          headers: from(nextAddress()),
          body: {
            name: 'Two Instances',
            email: 'sender@example.org',
            subject: `Outbox check ${i + 1}`,
            message: `Exactly once, please: ${marker}`,
          },
        });
        check(res.status === 201 || res.status === 200, `contact: ${res.status} ${res.text}`, a);
      }),
    );
    await waitFor(
      'every contact message at the SMTP peer',
      () => tokens.every((marker) => smtp.messages.some((m) => m.raw.includes(marker))),
      60_000,
      a,
    );
    await sleep(2000); // a duplicate would arrive now
    for (const marker of tokens) {
      const copies = smtp.messages.filter((m) => m.raw.includes(marker)).length;
      check(copies === 1, `a contact message arrived ${copies} times`, a);
    }
    const { rows: outbox } = await db.query(
      "select status, count(*)::int as n from mail_outbox where kind like 'contact%' group by status",
    );
    figures.mail = `${tokens.length} contact messages sent, ${smtp.messages.length} received, each once (outbox: ${outbox.map((r) => `${r.n} ${r.status}`).join(', ')})`;

    // 2. Shared limits: 20 sign-ins from one address alternate between the instances; the 21st
    // is refused by either.
    const address = nextAddress();
    for (let i = 0; i < 20; i += 1) {
      const res = await api(pick(i).url, 'POST', '/api/v1/auth/login', {
        headers: from(address),
        body: { email: `nobody${i}@example.org`, password: 'not the password' },
      });
      check(res.status === 401, `sign-in ${i + 1} got ${res.status} ${res.text}`, pick(i));
    }
    for (const server of instances) {
      const res = await api(server.url, 'POST', '/api/v1/auth/login', {
        headers: from(address),
        body: { email: 'nobody21@example.org', password: 'not the password' },
      });
      check(
        res.status === 429 && res.json?.error?.code === 'RATE_LIMITED',
        `the 21st sign-in got ${res.status}`,
        server,
      );
    }
    figures.limits =
      '20 sign-ins from one address accepted across both, the 21st refused (429) by each';

    // 3. A flag switched through A is seen by B within 2 s (LISTEN/NOTIFY).
    const before = await api(b.url, 'GET', '/api/v1/config', { headers: from(nextAddress()) });
    const wanted = !before.json.data.flags.emergencyServices;
    const switched = Date.now();
    const put = await api(a.url, 'PUT', '/api/v1/admin/flags', {
      token,
      body: { emergencyServices: wanted },
    });
    check(put.status === 200, `switching a flag: ${put.status} ${put.text}`, a);
    await waitFor(
      'the flag on the other instance',
      async () =>
        (await api(b.url, 'GET', '/api/v1/config', { headers: from(nextAddress()) })).json.data
          .flags.emergencyServices === wanted,
      2000,
      b,
    );
    figures.flag = `flag seen on the other instance after ${Date.now() - switched} ms`;

    // 4. A document uploaded through A, served through B to its owner and an administrator,
    // erased through B: no bytes left in the database, and A serves nothing.
    const register = await api(a.url, 'POST', '/api/v1/auth/register', {
      headers: from(nextAddress()),
      body: {
        email: `two-${randomUUID().slice(0, 8)}@example.org`,
        password: 'correct horse battery',
        fullName: 'Asha Verma',
        phone: nextPhone().replace(/^7/, '9'),
        bloodType: 'O+',
        dateOfBirth: '1990-04-01',
        gender: 'female',
        city: 'Pune',
        state: 'Maharashtra',
        pincode: '411001',
        consent: true,
      },
    });
    check(register.status === 201, `register: ${register.status} ${register.text}`, a);
    const donorToken = register.json.data.tokens.accessToken;
    const donorId = register.json.data.user.id;
    const form = new FormData();
    form.set('type', 'id_proof');
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'id.png');
    const uploaded = await fetch(`${a.url}/api/v1/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${donorToken}`, ...from(nextAddress()) },
      body: form,
    });
    const uploadedJson = await uploaded.json();
    check(uploaded.status === 201, `upload: ${uploaded.status} ${JSON.stringify(uploadedJson)}`, a);
    const documentId = uploadedJson.data.document.id;
    for (const [who, bearer] of [
      ['owner', donorToken],
      ['administrator', token],
    ]) {
      const res = await fetch(`${b.url}/api/v1/documents/${documentId}/file`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      check(
        // The stored file is the PNG drawn again (decision 012): a PNG of the stored size.
        res.status === 200 &&
          bytes.length === uploadedJson.data.document.size &&
          bytes.subarray(0, 8).equals(PNG.subarray(0, 8)),
        `the ${who} got ${res.status} (${bytes.length} bytes) through the other instance`,
        b,
      );
    }
    const erased = await api(b.url, 'DELETE', `/api/v1/users/${donorId}`, {
      token: donorToken,
      body: { password: 'correct horse battery' },
    });
    check(erased.status === 200, `erasure: ${erased.status} ${erased.text}`, b);
    const { rows: left } = await db.query(
      'select count(*)::int as n from document_chunks where document_id = $1',
      [documentId],
    );
    check(left[0].n === 0, `${left[0].n} chunks of an erased document are left`, b);
    const gone = await api(a.url, 'GET', `/api/v1/documents/${documentId}/file`, { token });
    check(gone.status === 404, `the erased document through A: ${gone.status}`, a);
    figures.documents =
      'uploaded via A, served via B (owner, admin), erased via B: 0 chunks left, A answers 404';

    // 5. One phone: 8 different requests at once over both instances make 3; 6 identical make 1.
    const phone = nextPhone();
    const types = ['O-', 'O+', 'A-', 'A+', 'B-', 'B+', 'AB-', 'AB+'];
    const burst = await Promise.all(
      types.map((bloodType, i) =>
        api(pick(i).url, 'POST', '/api/v1/blood-requests', {
          headers: from(nextAddress()),
          body: guestRequestBody({ contactPhone: phone, bloodType }),
        }),
      ),
    );
    const made = burst.filter((r) => r.status === 201).length;
    check(made === 3, `8 simultaneous requests from one phone made ${made}`, a);
    const same = guestRequestBody();
    const identical = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api(pick(i).url, 'POST', '/api/v1/blood-requests', {
          headers: from(nextAddress()),
          body: same,
        }),
      ),
    );
    const madeSame = identical.filter((r) => r.status === 201).length;
    check(madeSame === 1, `6 identical simultaneous requests made ${madeSame}`, a);
    figures.phone = `8 at once from one phone → ${made}; 6 identical → ${madeSame}`;

    // 6. A timed job done once: three open requests put past their time are expired by the
    // every-minute job of whichever instance runs first, each exactly once.
    const { rows: open } = await db.query(
      "select id from blood_requests where status in ('pending', 'verified') limit 3",
    );
    check(open.length === 3, `only ${open.length} open requests to expire`, a);
    const ids = open.map((row) => row.id);
    await db.query(
      "update blood_requests set expires_at = now() - interval '1 minute' where id = any($1)",
      [ids],
    );
    const expiredAfter = await waitFor(
      'the expiry job',
      async () =>
        (
          await db.query(
            "select count(*)::int as n from blood_requests where id = any($1) and status = 'expired'",
            [ids],
          )
        ).rows[0].n === 3,
      150_000,
      a,
    );
    await sleep(1500);
    const { rows: history } = await db.query(
      "select request_id, count(*)::int as n from blood_request_history where status = 'expired' and request_id = any($1) group by request_id",
      [ids],
    );
    check(
      history.length === 3 && history.every((row) => row.n === 1),
      `expiry recorded ${JSON.stringify(history)}`,
      a,
    );
    figures.jobs = `3 requests expired once each (after ${(expiredAfter / 1000).toFixed(0)} s)`;

    // 7. Kill A mid-stream: every request acknowledged (201) by either instance exists once;
    // requests whose reply was lost are retried on B with the same X-Request-ID.
    const attempts = [];
    let acknowledged = 0;
    let killing = null;
    const worker = async (n) => {
      for (let i = 0; ; i += 1) {
        const target = killing ? b : pick(n + i);
        const attempt = { requestId: randomUUID(), body: guestRequestBody(), outcome: 'pending' };
        attempts.push(attempt);
        try {
          const res = await api(target.url, 'POST', '/api/v1/blood-requests', {
            headers: { 'x-request-id': attempt.requestId, ...from(nextAddress()) },
            body: attempt.body,
          });
          if (res.status !== 201) {
            attempt.outcome = 'refused';
            attempt.text = `${res.status} ${res.text}`;
            return;
          }
          attempt.outcome = 'created';
          attempt.id = res.json.data.request.id;
          acknowledged += 1;
          if (acknowledged >= 25 && !killing) killing = a.kill();
          if (acknowledged >= 60) return;
        } catch (error) {
          attempt.outcome = error?.cause?.code === 'ECONNREFUSED' ? 'not-sent' : 'unknown';
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
    await killing;
    const refused = attempts.filter((x) => x.outcome === 'refused');
    check(refused.length === 0, `refused: ${refused.map((x) => x.text).join('; ')}`, b);
    for (const attempt of attempts.filter((x) => x.outcome === 'unknown')) {
      const res = await api(b.url, 'POST', '/api/v1/blood-requests', {
        headers: { 'x-request-id': attempt.requestId, ...from(nextAddress()) },
        body: attempt.body,
      });
      check(res.status === 201 || res.status === 200, `a retry got ${res.status}`, b);
      attempt.id = res.json.data.request.id;
    }
    const created = attempts.filter((x) => x.outcome === 'created');
    const { rows: stored } = await db.query(
      'select id, contact_phone from blood_requests where id = any($1)',
      [attempts.filter((x) => x.id).map((x) => x.id)],
    );
    const storedIds = new Set(stored.map((row) => row.id));
    const missing = created.filter((x) => !storedIds.has(x.id));
    check(missing.length === 0, `${missing.length} acknowledged requests are missing`, b);
    for (const attempt of attempts) {
      const { rows } = await db.query(
        'select count(*)::int as n from blood_requests where contact_phone = $1',
        [`+91${attempt.body.contactPhone}`],
      );
      const expected = attempt.outcome === 'not-sent' ? 0 : attempt.outcome === 'pending' ? -1 : 1;
      if (expected >= 0)
        check(rows[0].n === expected, `${attempt.outcome} request stored ${rows[0].n} times`, b);
    }
    const unknown = attempts.filter((x) => x.outcome === 'unknown').length;
    figures.kill = `A killed after 25 acknowledged; ${created.length} acknowledged all stored once, ${unknown} lost replies retried on B, no duplicates`;

    for (const [name, line] of Object.entries(figures)) console.log(`  ${name}: ${line}`);
  } finally {
    await db.end().catch(() => {});
    await Promise.all(servers.map((server) => server.stop()));
    smtp.close();
    for (const dir of dirs) removeDir(dir);
    await database.drop();
  }
});
