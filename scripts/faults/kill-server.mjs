// Fault test (issue #9): kill -9 the built server during a stream of guest blood requests,
// restart it on the same DATA_DIR (and database), and check that every request that got a 201
// exists exactly once, that requests whose fate the client never learnt (the connection died)
// can be retried with the same X-Request-ID without creating a second one, and that nothing is
// duplicated. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (a fresh database).
import { randomUUID } from 'node:crypto';
import {
  ADMIN,
  adminToken,
  api,
  check,
  ensureServerBuilt,
  fakeWebDist,
  guestRequestBody,
  listAllRequests,
  removeDir,
  runFault,
  scratchPostgres,
  sharedSecrets,
  startServer,
  tempDir,
} from './lib.mjs';

const WORKERS = 8;
/** Each round kills the server once this many requests were acknowledged (201) in it. */
const KILL_AFTER = [30, 12];

const e164 = (phone) => `+91${phone}`;

/** Guest requests from WORKERS loops until the server dies; kills it after `killAfter` 201s. */
async function streamUntilKilled(server, killAfter, attempts) {
  let acknowledged = 0;
  let killing = null;
  async function worker() {
    for (;;) {
      const attempt = { requestId: randomUUID(), body: guestRequestBody(), outcome: 'pending' };
      attempts.push(attempt);
      try {
        const res = await api(server.url, 'POST', '/api/v1/blood-requests', {
          body: attempt.body,
          headers: { 'x-request-id': attempt.requestId },
        });
        attempt.status = res.status;
        if (res.status === 201) {
          attempt.outcome = 'created';
          attempt.id = res.json.data.request.id;
          attempt.trackingCode = res.json.data.request.trackingCode;
          acknowledged += 1;
          if (acknowledged >= killAfter && !killing) killing = server.kill();
        } else {
          attempt.outcome = 'refused';
          attempt.text = res.text;
        }
      } catch (error) {
        const code = error?.cause?.code;
        // Refused: the request never reached a server. Anything else: it may have been handled.
        attempt.outcome = code === 'ECONNREFUSED' ? 'not-sent' : 'unknown';
        attempt.error = code ?? error.message;
        return;
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, worker));
  await killing;
  return acknowledged;
}

async function scenario(label, extraEnv) {
  const dataDir = tempDir('kill-data');
  const webDir = fakeWebDist();
  const env = {
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The stream comes from loopback: its per-address limit is not what is tested here.
    RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1',
    ...extraEnv,
  };
  const attempts = [];
  const rows = [];
  let server = await startServer(env);
  try {
    for (const killAfter of KILL_AFTER) {
      const before = attempts.length;
      const acknowledged = await streamUntilKilled(server, killAfter, attempts);
      const round = attempts.slice(before);
      check(
        server.child.signalCode === 'SIGKILL',
        `${label}: the server was not killed (${server.child.signalCode})`,
      );
      const restarted = await startServer(env, { port: server.port });
      server = restarted;
      rows.push({
        acknowledged,
        unknown: round.filter((a) => a.outcome === 'unknown').length,
        refused: round.filter((a) => a.outcome === 'refused').length,
        restartMs: restarted.startedInMs,
      });
      const refused = round.filter((a) => a.outcome === 'refused');
      check(
        refused.length === 0,
        `${label}: requests refused before the kill: ${refused.map((a) => `${a.status} ${a.text}`).join('; ')}`,
        server,
      );
    }

    // Requests whose reply was lost are retried as a client would: same X-Request-ID, same body.
    for (const attempt of attempts.filter((a) => a.outcome === 'unknown')) {
      const res = await api(server.url, 'POST', '/api/v1/blood-requests', {
        body: attempt.body,
        headers: { 'x-request-id': attempt.requestId },
      });
      check(
        res.status === 201 || res.status === 200,
        `${label}: the retry of a lost request got ${res.status} ${res.text}`,
        server,
      );
      attempt.retried = {
        status: res.status,
        replayed:
          res.headers.get('idempotent-replayed') === 'true' || res.json.data.duplicate === true,
        id: res.json.data.request.id,
      };
    }

    const token = await adminToken(server.url);
    const stored = await listAllRequests(server.url, token);
    const byId = new Map();
    const byPhone = new Map();
    for (const request of stored) {
      byId.set(request.id, (byId.get(request.id) ?? 0) + 1);
      byPhone.set(request.contactPhone, [...(byPhone.get(request.contactPhone) ?? []), request.id]);
    }

    const created = attempts.filter((a) => a.outcome === 'created');
    for (const attempt of created) {
      check(
        byId.get(attempt.id) === 1,
        `${label}: acknowledged request ${attempt.id} is missing after the restart`,
        server,
      );
      const track = await api(
        server.url,
        'GET',
        `/api/v1/blood-requests/track/${attempt.trackingCode}`,
      );
      check(
        track.status === 200,
        `${label}: tracking ${attempt.trackingCode} got ${track.status}`,
        server,
      );
    }
    const duplicates = [...byPhone.entries()].filter(([, ids]) => ids.length > 1);
    check(
      duplicates.length === 0,
      `${label}: duplicated requests for ${duplicates.map(([phone, ids]) => `${phone} (${ids.length})`).join(', ')}`,
      server,
    );
    for (const attempt of attempts.filter((a) => a.outcome === 'unknown')) {
      const ids = byPhone.get(e164(attempt.body.contactPhone)) ?? [];
      check(
        ids.length === 1 && ids[0] === attempt.retried.id,
        `${label}: a retried request is stored ${ids.length} times`,
        server,
      );
    }
    for (const attempt of attempts.filter((a) => a.outcome === 'not-sent')) {
      check(
        !byPhone.has(e164(attempt.body.contactPhone)),
        `${label}: a request that never reached the server exists`,
        server,
      );
    }
    const expected = created.length + attempts.filter((a) => a.outcome === 'unknown').length;
    check(
      stored.length === expected,
      `${label}: ${stored.length} requests stored, expected ${expected}`,
      server,
    );

    const unknown = attempts.filter((a) => a.outcome === 'unknown');
    console.log(
      `  ${label}: ${rows
        .map(
          (row, i) =>
            `kill ${i + 1} after ${row.acknowledged} × 201 (${row.unknown} in flight, restart ${(row.restartMs / 1000).toFixed(1)} s)`,
        )
        .join(
          '; ',
        )}; ${created.length} acknowledged all present once; ${unknown.length} lost replies ` +
        `retried (${unknown.filter((a) => a.retried.replayed).length} had been stored, answered as replays); ` +
        `${stored.length} requests, no duplicates`,
    );
  } finally {
    await server.stop();
    removeDir(dataDir);
    removeDir(webDir);
  }
}

runFault('kill -9 during guest requests', async () => {
  ensureServerBuilt();
  await scenario('PGlite', {});
  const postgres = await scratchPostgres();
  if (!postgres) {
    console.log('  PostgreSQL: skipped (TEST_DATABASE_URL is not set)');
    return;
  }
  try {
    await scenario(`PostgreSQL (${postgres.name})`, {
      DATABASE_URL: postgres.url,
      ...sharedSecrets(),
    });
  } finally {
    await postgres.drop();
  }
});
