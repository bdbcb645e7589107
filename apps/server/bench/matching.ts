// Matching benchmark (not a test): `npx tsx apps/server/bench/matching.ts` from the repository root.
// Seeds 100,000 donors around India — most clustered around 50 cities, the rest spread over the
// country — then runs matching for Critical requests at random cities and prints p50/p95 for
// (a) the candidate query plus ranking and (b) a whole first round through the service (match
// rows and notifications written in one transaction), and EXPLAIN (ANALYZE) of the query's first
// page. Every approved donor (and half the pending ones) has a questionnaire, about one in ten
// with a deferral, as after onboarding; the tables are vacuumed and analysed after seeding, as
// autovacuum leaves them in service (statistics for the planner, the visibility map for
// index-only scans).
// PGlite in memory always; PostgreSQL too when TEST_DATABASE_URL is set (a scratch database).
// Options: BENCH_DONORS (default 100000), BENCH_RUNS (default 40), BENCH_JSON (a file to which each
// database's figures are appended as one JSON line, for scripts/bench.mjs), BENCH_DATABASES
// (`pglite,postgres` by default; `postgres` alone skips PGlite).
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  BLOOD_TYPES,
  boundingBox,
  compatibleDonorTypes,
  rankCandidates,
  type BloodType,
} from '@bdms/shared';
import { sql } from 'drizzle-orm';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  executeRows,
  type Database,
  type Db,
} from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { bloodRequests, users } from '../src/db/schema';
import {
  candidateSql,
  createBloodRequestsRepository,
  FIRST_CANDIDATE_PAGE,
  hospitalNameKey,
  type CandidateQuery,
} from '../src/features/blood-requests/blood-requests.repository';
import { createBloodRequestsService } from '../src/features/blood-requests/blood-requests.service';
import { loadReferenceData } from '../src/features/facilities/facilities.loader';
import { createIdempotency } from '../src/lib/idempotency';
import { createNotifier } from '../src/features/notifications/notifier';
import { createScratchPostgresDatabase } from '../src/test/test-database';

const DONORS = Number(process.env.BENCH_DONORS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const DAY = 86_400_000;

/** 50 Indian cities (approximate centres); donors cluster around them by population weight. */
const CITIES: [string, number, number, number][] = [
  ['Mumbai', 19.076, 72.8777, 20],
  ['Delhi', 28.6139, 77.209, 20],
  ['Bengaluru', 12.9716, 77.5946, 12],
  ['Hyderabad', 17.385, 78.4867, 10],
  ['Ahmedabad', 23.0225, 72.5714, 8],
  ['Chennai', 13.0827, 80.2707, 10],
  ['Kolkata', 22.5726, 88.3639, 14],
  ['Surat', 21.1702, 72.8311, 6],
  ['Pune', 18.5204, 73.8567, 7],
  ['Jaipur', 26.9124, 75.7873, 4],
  ['Lucknow', 26.8467, 80.9462, 4],
  ['Kanpur', 26.4499, 80.3319, 3],
  ['Nagpur', 21.1458, 79.0882, 3],
  ['Indore', 22.7196, 75.8577, 3],
  ['Thane', 19.2183, 72.9781, 2],
  ['Bhopal', 23.2599, 77.4126, 2],
  ['Visakhapatnam', 17.6868, 83.2185, 2],
  ['Patna', 25.5941, 85.1376, 2],
  ['Vadodara', 22.3072, 73.1812, 2],
  ['Ghaziabad', 28.6692, 77.4538, 2],
  ['Ludhiana', 30.901, 75.8573, 2],
  ['Agra', 27.1767, 78.0081, 2],
  ['Nashik', 19.9975, 73.7898, 2],
  ['Ranchi', 23.3441, 85.3096, 1],
  ['Meerut', 28.9845, 77.7064, 1],
  ['Rajkot', 22.3039, 70.8022, 1],
  ['Varanasi', 25.3176, 82.9739, 1],
  ['Srinagar', 34.0837, 74.7973, 1],
  ['Aurangabad', 19.8762, 75.3433, 1],
  ['Dhanbad', 23.7957, 86.4304, 1],
  ['Amritsar', 31.634, 74.8723, 1],
  ['Allahabad', 25.4358, 81.8463, 1],
  ['Jabalpur', 23.1815, 79.9864, 1],
  ['Gwalior', 26.2183, 78.1828, 1],
  ['Vijayawada', 16.5062, 80.648, 1],
  ['Jodhpur', 26.2389, 73.0243, 1],
  ['Madurai', 9.9252, 78.1198, 1],
  ['Raipur', 21.2514, 81.6296, 1],
  ['Kota', 25.2138, 75.8648, 1],
  ['Guwahati', 26.1445, 91.7362, 1],
  ['Chandigarh', 30.7333, 76.7794, 1],
  ['Solapur', 17.6599, 75.9064, 1],
  ['Bareilly', 28.367, 79.4304, 1],
  ['Mysuru', 12.2958, 76.6394, 1],
  ['Tiruchirappalli', 10.7905, 78.7047, 1],
  ['Thiruvananthapuram', 8.5241, 76.9366, 1],
  ['Kochi', 9.9312, 76.2673, 1],
  ['Bhubaneswar', 20.2961, 85.8245, 1],
  ['Coimbatore', 11.0168, 76.9558, 1],
  ['Dehradun', 30.3165, 78.0322, 1],
];
/** Roughly India's ABO/Rh distribution. */
const TYPE_WEIGHTS: Record<BloodType, number> = {
  'O+': 0.36,
  'B+': 0.32,
  'A+': 0.22,
  'AB+': 0.07,
  'O-': 0.01,
  'B-': 0.01,
  'A-': 0.008,
  'AB-': 0.002,
};

let seed = 42;
/** A small deterministic PRNG (mulberry32), so both drivers get the same donors. */
function random(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
function weighted<T extends string>(weights: Record<T, number>): T {
  let r = random() * Object.values<number>(weights).reduce((a, b) => a + b, 0);
  for (const [key, weight] of Object.entries<number>(weights)) {
    r -= weight;
    if (r <= 0) return key as T;
  }
  return Object.keys(weights)[0] as T;
}
const cityWeights = Object.fromEntries(CITIES.map(([name, , , w]) => [name, w])) as Record<
  string,
  number
>;
const cityByName = new Map(CITIES.map((city) => [city[0], city]));

function donorPoint(): { latitude: number; longitude: number } {
  if (random() < 0.15) return { latitude: 8 + random() * 25, longitude: 70 + random() * 25 };
  const [, lat, lng] = cityByName.get(weighted(cityWeights))!;
  // About 12 km standard deviation around the centre.
  return { latitude: lat + gaussian() * 0.11, longitude: lng + gaussian() * 0.11 };
}

async function seedDonors(db: Db, now: number): Promise<void> {
  seed = 42;
  const pins = await executeRows<{ pincode: string }>(
    db,
    sql`select pincode from pincodes order by pincode`,
  );
  const batch: (typeof users.$inferInsert)[] = [];
  for (let i = 0; i < DONORS; i += 1) {
    const recent = random() < 0.4;
    // One donor in ten gave only a PIN code (no point of their own).
    const byPincode = pins.length > 0 && random() < 0.1;
    const point = byPincode ? { latitude: null, longitude: null } : donorPoint();
    batch.push({
      email: `bench-donor-${i}@example.org`,
      passwordHash: '!bench',
      role: 'donor',
      status: random() < 0.8 ? 'approved' : 'pending',
      fullName: `Donor ${i}`,
      phone: `+919${String(100_000_000 + i)}`,
      bloodType: weighted(TYPE_WEIGHTS),
      gender: random() < 0.7 ? 'male' : 'female',
      ...point,
      pincode: byPincode ? pins[Math.floor(random() * pins.length)]!.pincode : null,
      available: random() < 0.7,
      availabilityConfirmedAt: new Date(now - random() * 60 * DAY),
      lastDonationAt: recent ? new Date(now - random() * 365 * DAY) : null,
    });
    if (batch.length === 2000) {
      await db.insert(users).values(batch);
      batch.length = 0;
    }
  }
  if (batch.length) await db.insert(users).values(batch);
  // Questionnaires, deterministic by donor number: 6 % deferred until a date (some passed),
  // 2 % deferred while a condition lasts, 1 % permanently; the rest eligible.
  await db.execute(sql`insert into questionnaires
      (user_id, answers, eligible, next_eligible_at, deferrals, submitted_at, review_decision)
    select id,
      -- The answers behind each verdict: the ranking decides from them at matching time.
      ${JSON.stringify({ weightKg: 68, firstTimeDonor: false, feelsWell: true, conditions: [] })}::jsonb
        || case when k < 6 then jsonb_build_object('conditions', '["tattoo_piercing"]'::jsonb,
               'conditionDates', jsonb_build_object('tattoo_piercing',
                 to_char((until - interval '12 months') at time zone 'Asia/Kolkata', 'YYYY-MM-DD')))
             when k < 8 then '{"conditions": ["cold_flu"]}'::jsonb
             when k < 9 then '{"conditions": ["hiv"]}'::jsonb
             else '{}'::jsonb end,
      k >= 9, case when k < 6 then until end,
      case when k < 6 then jsonb_build_array(jsonb_build_object('code', 'tattoo_piercing',
          'message', 'Wait 12 months after a tattoo or piercing.',
          'until', to_char(until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
        when k < 8 then '[{"code": "cold_flu", "message": "Wait until you are well."}]'::jsonb
        when k < 9 then '[{"code": "hiv", "message": "Not possible.", "permanent": true}]'::jsonb
        else '[]'::jsonb end,
      ${new Date(now - 30 * DAY).toISOString()}::timestamptz,
      case when n % 3 = 0 then 'accepted' end
    from (select id, n, n % 100 as k,
            ${new Date(now).toISOString()}::timestamptz + ((n % 180) - 60) * interval '1 day' as until
          from (select id, status, substring(email from 'bench-donor-([0-9]+)@')::int as n
                from users where role = 'donor') d
          where status = 'approved' or n % 2 = 0) s`);
  await db.execute(sql`vacuum analyze`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function bench(label: string, database: Database): Promise<void> {
  const { db } = database;
  const now = Date.now();
  console.log(`\n## ${label}`);
  let started = performance.now();
  await runMigrations(database);
  console.log(`migrations: ${Math.round(performance.now() - started)} ms`);
  // The PIN code points too, so the query's second branch (donors placed by PIN code) is real.
  const loaded = await loadReferenceData(db);
  console.log(
    `reference data: ${loaded.map((r) => `${r.name} ${r.rows} rows in ${Math.round(r.ms)} ms`).join(', ')}`,
  );
  started = performance.now();
  await seedDonors(db, now);
  console.log(`seeded ${DONORS} donors: ${Math.round(performance.now() - started)} ms`);

  const [admin] = await db
    .insert(users)
    .values({
      email: 'bench-admin@example.org',
      passwordHash: '!bench',
      role: 'admin',
      status: 'approved',
      fullName: 'Admin',
    })
    .returning();
  const stubMail = { enqueue: async () => ({ id: 'x' }), kick: () => {} } as never;
  const notifier = createNotifier({
    db,
    config: {
      publicUrl: 'http://localhost',
      vapid: { publicKey: 'x', privateKey: 'x' },
      supportEmail: 'a@b.c',
    },
    mail: stubMail,
  });
  const service = createBloodRequestsService({
    db,
    notifier,
    idempotency: createIdempotency(db),
    config: { jwtSecret: 'bench-secret-bench-secret-bench-secret' },
  });
  const repo = createBloodRequestsRepository(db);

  const queryMs: number[] = [];
  const roundMs: number[] = [];
  const candidates: number[] = [];
  const read: number[] = [];
  const told: number[] = [];
  let busiest: { query: CandidateQuery; count: number; label: string } | undefined;
  for (let run = 0; run < RUNS; run += 1) {
    const [city, lat, lng] = CITIES[Math.floor(random() * CITIES.length)]!;
    const bloodType = BLOOD_TYPES[Math.floor(random() * BLOOD_TYPES.length)]!;
    const [row] = await db
      .insert(bloodRequests)
      .values({
        trackingCode: `B${String(run).padStart(7, '0')}`,
        status: 'pending',
        urgency: 'critical',
        bloodType,
        unitsNeeded: 2,
        hospitalName: `${city} General Hospital`,
        hospitalNameKey: hospitalNameKey(`${city} General Hospital`),
        city,
        state: 'State',
        latitude: lat,
        longitude: lng,
        locationSource: 'given',
        contactName: 'Bench',
        contactPhone: `+918${String(100_000_000 + run)}`,
        expiresAt: new Date(now + 3 * DAY),
        createdByRole: 'guest',
      })
      .returning();
    const query = {
      requestId: row!.id,
      latitude: lat,
      longitude: lng,
      radiusKm: 25,
      box: boundingBox({ latitude: lat, longitude: lng }, 25),
      donorTypes: compatibleDonorTypes(bloodType),
      lastDonationBy: new Date(now - 90 * DAY),
      alertsSince: new Date(now - 7 * DAY),
    };
    const request = { latitude: lat, longitude: lng, bloodType };
    const settings = { radiusKm: 25, maxDonorsPerRequest: 20, maxAlertsPerDonorPer7d: 2 };
    let t = performance.now();
    // As the service's round: pages in the ranking's order until the ranking has its donors.
    const found = await repo.findCandidates(
      query,
      (rows) => rankCandidates(rows, request, now, settings).length >= settings.maxDonorsPerRequest,
    );
    rankCandidates(found, request, now, settings);
    queryMs.push(performance.now() - t);
    read.push(found.length);
    // Every donor in the circle (not timed): what the round would read without pages.
    const [all] = await executeRows<{ count: string }>(
      db,
      sql`select count(*) from (${candidateSql(query)}) c`,
    );
    candidates.push(Number(all!.count));
    if (!busiest || Number(all!.count) > busiest.count) {
      busiest = { query, count: Number(all!.count), label: `${city}, ${bloodType}` };
    }
    t = performance.now();
    const verified = await service.setStatus(
      { id: admin!.id, role: 'admin', status: 'approved' },
      row!.id,
      { status: 'verified' },
      { ip: '127.0.0.1', userAgent: null, requestId: `bench-${run}`, idempotencyKey: null },
    );
    roundMs.push(performance.now() - t);
    told.push(verified.matches.notified);
  }
  const fmt = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
  console.log(`runs: ${RUNS} Critical requests at random cities, radius 25 km`);
  console.log(
    `candidates per request: p50 ${percentile(candidates, 50)}, p95 ${percentile(candidates, 95)}`,
  );
  console.log(
    `candidate rows read per request: p50 ${percentile(read, 50)}, max ${Math.max(...read)}`,
  );
  console.log(`donors told per request: p50 ${percentile(told, 50)}, max ${Math.max(...told)}`);
  console.log(`(a) candidate query + ranking: ${fmt(queryMs)}`);
  console.log(
    `(b) whole first round (verify → match rows + notifications, one transaction): ${fmt(roundMs)}`,
  );
  // The request with the most donors in its circle, after every round wrote its match rows
  // (the fairness look-ups): the first page, which is what a round reads.
  const explained = await executeRows<Record<string, string>>(
    db,
    sql`explain (analyze, buffers) ${candidateSql(busiest!.query, { limit: FIRST_CANDIDATE_PAGE })}`,
  );
  console.log(
    `EXPLAIN (ANALYZE, BUFFERS) of the candidate query's first page for ${busiest!.label} (${busiest!.count} donors in the circle):`,
  );
  const plan = explained.map((line) => Object.values(line)[0]!);
  for (const line of plan) console.log(`  ${line}`);
  if (process.env.BENCH_JSON) {
    const indexes = [
      ...new Set(
        plan
          .join('\n')
          .match(/(?<=(?:Index|Index Only|Bitmap Index) Scan (?:Backward )?(?:using|on) )\w+/g) ??
          [],
      ),
    ];
    const round = (value: number) => Math.round(value * 10) / 10;
    appendFileSync(
      process.env.BENCH_JSON,
      `${JSON.stringify({
        database: label,
        donors: DONORS,
        runs: RUNS,
        queryP50ms: round(percentile(queryMs, 50)),
        queryP95ms: round(percentile(queryMs, 95)),
        roundP50ms: round(percentile(roundMs, 50)),
        roundP95ms: round(percentile(roundMs, 95)),
        candidatesP50: percentile(candidates, 50),
        indexesUsed: indexes,
        seqScans: [...new Set(plan.join('\n').match(/(?<=Seq Scan on )\w+/g) ?? [])],
        plan,
      })}\n`,
    );
  }
}

async function main() {
  console.log(
    `# Matching benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  if (databases.includes('pglite')) {
    const client = new PGlite({ extensions: { pg_trgm } });
    await client.waitReady;
    const pglite = createPgliteDatabase(client);
    try {
      await bench('PGlite (in memory)', pglite);
    } finally {
      await pglite.close();
    }
  }
  const url = process.env.TEST_DATABASE_URL;
  if (url && databases.includes('postgres')) {
    const scratch = await createScratchPostgresDatabase(url);
    const postgres = createPostgresDatabase(scratch.url);
    try {
      await bench(`PostgreSQL (${url.replace(/\/\/[^@]*@/, '//')})`, postgres);
    } finally {
      await postgres.close();
      await scratch.drop();
    }
  }
}

await main();
