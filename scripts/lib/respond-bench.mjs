// Donors answering alerts, for `npm run bench` (section `respond`, PostgreSQL only; issue #20's
// target: a signed-in donor's accept/decline ≥ 1,000 req/s). Every answer is a different
// (donor, request) pair, as in life: a donor answers a request once. The server's database is
// seeded with approved donors around Hyderabad, guest requests are made and verified through the
// API (matching writes the match rows), and each donor gets an access token signed with the
// server's secret (signing in thousands of donors would measure password hashing instead).
import { SignJWT } from 'jose';
import pg from 'pg';

const HYDERABAD = { latitude: 17.385, longitude: 78.4867 };

/**
 * Returns the answers to send: [{ requestId, token, response }], accepted and declined in turn.
 * `api(method, url, body, token)` calls the server; `adminToken` is an administrator's token.
 */
export async function prepareResponses({
  databaseUrl,
  jwtSecret,
  api,
  adminToken,
  donors,
  requests,
}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: seeded } = await client.query(
      `insert into users (email, password_hash, role, status, full_name, phone, blood_type, gender,
         date_of_birth, city, state, pincode, latitude, longitude, available,
         availability_confirmed_at, language, created_at)
       select 'respond' || g || '@example.org', '!none', 'donor', 'approved',
         'Bench Donor ' || g, '+917' || lpad(g::text, 9, '0'), 'O+',
         case when g % 3 = 0 then 'female' else 'male' end, '1990-01-01',
         'Hyderabad', 'Telangana', '500001',
         $2::float8 + (random() - 0.5) * 0.2, $3::float8 + (random() - 0.5) * 0.2,
         true, now() - interval '1 day', 'en', now()
       from generate_series(1, $1::int) as g
       returning id, token_version`,
      [donors, HYDERABAD.latitude, HYDERABAD.longitude],
    );
    await client.query(
      `insert into questionnaires (user_id, answers, eligible, deferrals, submitted_at)
       select id, '{"weightKg":70,"firstTimeDonor":false,"feelsWell":true,"conditions":[]}'::jsonb,
         true, '[]'::jsonb, now()
       from users where email like 'respond%'`,
    );
    await client.query('vacuum analyze users');

    // Every request asks as many donors as the settings allow, and each donor may be asked by
    // every request of the run.
    await api(
      'PUT',
      '/api/v1/admin/notifications/settings',
      { maxDonorsPerRequest: 200, maxAlertsPerDonorPer7d: 20, matchRadiusKm: 25 },
      adminToken,
    );
    for (let index = 0; index < requests; index += 1) {
      const created = await api('POST', '/api/v1/blood-requests', {
        bloodType: 'O+',
        unitsNeeded: 2,
        urgency: 'urgent',
        hospitalName: 'Gandhi Hospital',
        city: 'Secunderabad',
        state: 'Telangana',
        ...HYDERABAD,
        contactName: 'Bench Guest',
        contactPhone: `+9177${String(10_000_000 + index).slice(-8)}`,
      });
      await api(
        'PUT',
        `/api/v1/blood-requests/${created.request.id}/status`,
        { status: 'verified', notes: 'Confirmed with the ward' },
        adminToken,
      );
    }

    const key = new TextEncoder().encode(jwtSecret);
    const tokens = new Map();
    const issuedAt = Math.floor(Date.now() / 1000);
    for (const donor of seeded) {
      tokens.set(
        donor.id,
        await new SignJWT({ role: 'donor', ver: donor.token_version })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(donor.id)
          .setIssuer('bdms-server')
          .setAudience('bdms-api')
          .setIssuedAt(issuedAt)
          .setExpirationTime(issuedAt + 3600)
          .sign(key),
      );
    }
    // In a random order: answers to one request arrive together (they queue on its row lock),
    // as they do when many donors answer one Critical alert, but not all at once.
    const { rows: matches } = await client.query(
      `select request_id, donor_id from blood_request_matches
       where response is null order by random()`,
    );
    return matches
      .filter((match) => tokens.has(match.donor_id))
      .map((match, index) => ({
        requestId: match.request_id,
        token: tokens.get(match.donor_id),
        response: index % 2 === 0 ? 'accepted' : 'declined',
      }));
  } finally {
    await client.end();
  }
}
