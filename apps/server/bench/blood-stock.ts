// Blood stock benchmark (not a test): `npx tsx apps/server/bench/blood-stock.ts` from the root.
// Issue #17's target: the availability search "O- PRBC within 25 km of PIN 110001" answers in p95 <
// 20 ms on PostgreSQL with 3,000 centres × 8 groups × 5 components seeded and 1,000 stock updates
// a minute arriving. Loads the real directory (2,823 blood banks) and PIN points, adds synthetic
// centres around the big cities up to BENCH_CENTRES, gives every centre a verified account and a
// full stock table (80 % confirmed within the last 24 h, the rest stale), then for BENCH_SECONDS
// runs the search back to back through the service (origin lookup, query, haversine cut,
// grouping; the public reply cache is bypassed, as it is dropped on every write anyway) while
// a writer sends BENCH_UPDATES_PER_MIN full updates through the service (lock, diff, upsert of 40
// lines, history, activity log). Prints p50/p95/p99 and EXPLAIN (ANALYZE) of the query.
// PostgreSQL needs TEST_DATABASE_URL (a scratch database is created and dropped); BENCH_DATABASES
// `postgres` (default) or `pglite,postgres`. BENCH_JSON appends one JSON line per database.
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  boundingBox,
  componentDonorTypes,
  STOCK_STALE_AFTER_MS,
} from '@bdms/shared';
import { and, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  executeRows,
  type Database,
  type Db,
} from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { bloodStock, facilities, hospitals, users } from '../src/db/schema';
import { createBloodStockService } from '../src/features/blood-stock/blood-stock.service';
import { createFacilitiesService } from '../src/features/facilities/facilities.service';
import { loadReferenceData } from '../src/features/facilities/facilities.loader';
import { createScratchPostgresDatabase } from '../src/test/test-database';

const CENTRES = Number(process.env.BENCH_CENTRES ?? 3000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const UPDATES_PER_MIN = Number(process.env.BENCH_UPDATES_PER_MIN ?? 1000);
const HOUR = 3_600_000;
const QUERY = {
  bloodType: 'O-' as const,
  component: 'prbc' as const,
  pincode: '110001',
  radiusKm: 25,
  limit: 10,
};

let seed = 17;
/** mulberry32: the same centres and figures on every run and driver. */
function random(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const CITIES: [number, number][] = [
  [28.6139, 77.209],
  [19.076, 72.8777],
  [12.9716, 77.5946],
  [17.385, 78.4867],
  [13.0827, 80.2707],
  [22.5726, 88.3639],
];
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (value: number) => Math.round(value * 100) / 100;

async function seedCentres(db: Db, now: number): Promise<{ facilityId: string; userId: string }[]> {
  seed = 17;
  const existing = await executeRows<{ id: string }>(
    db,
    sql`select id from facilities order by id`,
  );
  const extra = Math.max(0, CENTRES - existing.length);
  const synthetic = Array.from({ length: extra }, (_, i) => {
    const [lat, lng] = CITIES[i % CITIES.length]!;
    return {
      id: `bb-${900000 + i}`,
      srNo: 900000 + i,
      name: `Bench Centre ${i}`,
      state: 'Bench',
      latitude: lat + (random() - 0.5) * 0.5,
      longitude: lng + (random() - 0.5) * 0.5,
      search: `bench centre ${i}`,
    };
  });
  for (let i = 0; i < synthetic.length; i += 500)
    await db.insert(facilities).values(synthetic.slice(i, i + 500));
  const ids = [...existing.map((row) => row.id), ...synthetic.map((row) => row.id)].slice(
    0,
    CENTRES,
  );

  const accounts: { facilityId: string; userId: string }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    const orgs = await db
      .insert(hospitals)
      .values(slice.map((id) => ({ name: id, facilityId: id, city: 'Bench', state: 'Bench' })))
      .returning({ id: hospitals.id, facilityId: hospitals.facilityId });
    const people = await db
      .insert(users)
      .values(
        orgs.map((org, j) => ({
          email: `bench-centre-${i + j}@example.org`,
          passwordHash: '!bench',
          role: 'hospital' as const,
          status: 'approved' as const,
          fullName: `Desk ${i + j}`,
          hospitalId: org.id,
        })),
      )
      .returning({ id: users.id, hospitalId: users.hospitalId });
    for (const person of people)
      accounts.push({
        facilityId: orgs.find((org) => org.id === person.hospitalId)!.facilityId!,
        userId: person.id,
      });
  }

  const rows: (typeof bloodStock.$inferInsert)[] = [];
  for (const account of accounts) {
    // 80 % of centres confirmed within the last 24 h, the rest up to 3 days ago (stale).
    const age = random() < 0.8 ? random() * 23 * HOUR : (24 + random() * 48) * HOUR;
    for (const component of BLOOD_COMPONENTS)
      for (const bloodType of BLOOD_TYPES) {
        rows.push({
          facilityId: account.facilityId,
          bloodType,
          component,
          units: random() < 0.3 ? 0 : Math.floor(random() * 40),
          expiringUnits: null,
          updatedAt: new Date(now - age),
          updatedBy: account.userId,
        });
        if (rows.length === 4000) {
          await db.insert(bloodStock).values(rows);
          rows.length = 0;
        }
      }
  }
  if (rows.length) await db.insert(bloodStock).values(rows);
  await db.execute(sql`vacuum analyze`);
  return accounts;
}

async function bench(label: string, database: Database): Promise<void> {
  const { db } = database;
  console.log(`\n## ${label}`);
  await runMigrations(database);
  const loaded = await loadReferenceData(db);
  console.log(`reference data: ${loaded.map((r) => `${r.name} ${r.rows} rows`).join(', ')}`);
  const now = Date.now();
  const started = performance.now();
  const accounts = await seedCentres(db, now);
  const [{ lines } = { lines: 0 }] = await executeRows<{ lines: number }>(
    db,
    sql`select count(*)::int as lines from blood_stock`,
  );
  console.log(
    `seeded ${accounts.length} centres, ${lines} stock lines: ${Math.round(performance.now() - started)} ms`,
  );

  const facilitiesService = createFacilitiesService({ db });
  const stock = createBloodStockService({ db, resolveOrigin: facilitiesService.resolveOrigin });

  // Warm-up: plans cached, pages in memory.
  for (let i = 0; i < 20; i += 1) await stock.availability(QUERY);
  // The search alone first (no writes), for comparison.
  const quietMs: number[] = [];
  const quietUntil = Date.now() + Math.min(10, SECONDS) * 1000;
  while (Date.now() < quietUntil) {
    const begun = performance.now();
    await stock.availability(QUERY);
    quietMs.push(performance.now() - begun);
  }
  console.log(
    `search alone: ${quietMs.length} runs, p50 ${percentile(quietMs, 50).toFixed(1)} ms, p95 ${percentile(quietMs, 95).toFixed(1)} ms`,
  );

  const deadline = Date.now() + SECONDS * 1000;
  let writes = 0;
  let writeErrors = 0;
  const writeMs: number[] = [];
  const interval = 60_000 / UPDATES_PER_MIN;
  // Updates arrive on a schedule, whether or not the previous one has finished (as centres'
  // desks would): several may be in flight at once.
  const inFlight = new Set<Promise<void>>();
  const sendUpdate = () => {
    const account = accounts[Math.floor(random() * accounts.length)]!;
    const begun = performance.now();
    const lines = BLOOD_COMPONENTS.flatMap((component) =>
      BLOOD_TYPES.map((bloodType) => ({ bloodType, component, units: Math.floor(random() * 40) })),
    );
    const done = stock
      .update(
        { id: account.userId, role: 'hospital', status: 'approved' },
        account.facilityId,
        { lines },
        { requestId: 'bench', ip: '127.0.0.1', userAgent: 'bench', idempotencyKey: null },
      )
      .then(
        () => {
          writes += 1;
        },
        () => {
          writeErrors += 1;
        },
      )
      .finally(() => {
        writeMs.push(performance.now() - begun);
        inFlight.delete(done);
      });
    inFlight.add(done);
  };
  const timer = setInterval(sendUpdate, interval);

  const queryMs: number[] = [];
  let found = 0;
  while (Date.now() < deadline) {
    const begun = performance.now();
    const result = await stock.availability(QUERY);
    queryMs.push(performance.now() - begun);
    found = result.items.length;
  }
  clearInterval(timer);
  await Promise.all([...inFlight]);
  const perMin = Math.round((writes / SECONDS) * 60);
  console.log(
    `search "O- PRBC within 25 km of PIN 110001": ${queryMs.length} runs, p50 ${percentile(queryMs, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(queryMs, 95).toFixed(1)} ms, p99 ${percentile(queryMs, 99).toFixed(1)} ms, max ${Math.max(...queryMs).toFixed(1)} ms; ${found} centres listed`,
  );
  console.log(
    `updates meanwhile: ${writes} in ${SECONDS} s (${perMin}/min, ${writeErrors} failed), p50 ${percentile(writeMs, 50).toFixed(1)} ms, p95 ${percentile(writeMs, 95).toFixed(1)} ms`,
  );

  // The plan of the query the repository runs.
  const [pin] = await executeRows<{ latitude: number; longitude: number }>(
    db,
    sql`select latitude, longitude from pincodes where pincode = ${QUERY.pincode}`,
  );
  const box = boundingBox(pin!, QUERY.radiusKm + 5);
  const query = db
    .select({ id: facilities.id, bloodType: bloodStock.bloodType, units: bloodStock.units })
    .from(bloodStock)
    .innerJoin(facilities, eq(facilities.id, bloodStock.facilityId))
    .where(
      and(
        eq(bloodStock.component, QUERY.component),
        inArray(bloodStock.bloodType, componentDonorTypes(QUERY.component, QUERY.bloodType)),
        gt(bloodStock.units, 0),
        gte(bloodStock.updatedAt, new Date(Date.now() - STOCK_STALE_AFTER_MS)),
        gte(facilities.latitude, box.minLat),
        lte(facilities.latitude, box.maxLat),
        gte(facilities.longitude, box.minLng),
        lte(facilities.longitude, box.maxLng),
      ),
    );
  const explained = await executeRows<Record<string, string>>(
    db,
    sql`explain (analyze, buffers) ${query.getSQL()}`,
  );
  const plan = explained.map((line) => Object.values(line)[0]!);
  console.log('EXPLAIN (ANALYZE, BUFFERS):');
  for (const line of plan) console.log(`  ${line}`);

  if (process.env.BENCH_JSON)
    appendFileSync(
      process.env.BENCH_JSON,
      `${JSON.stringify({
        benchmark: 'stock availability (O- PRBC, 25 km, PIN 110001)',
        database: label,
        centres: accounts.length,
        stockLines: lines,
        runs: queryMs.length,
        aloneP95ms: round(percentile(quietMs, 95)),
        queryP50ms: round(percentile(queryMs, 50)),
        queryP95ms: round(percentile(queryMs, 95)),
        queryP99ms: round(percentile(queryMs, 99)),
        updatesPerMin: perMin,
        updateP95ms: round(percentile(writeMs, 95)),
        centresListed: found,
      })}\n`,
    );
}

async function main() {
  console.log(
    `# Blood stock benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const databases = (process.env.BENCH_DATABASES ?? 'postgres').split(',');
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
  if (databases.includes('postgres')) {
    if (!url) {
      console.log('PostgreSQL skipped: set TEST_DATABASE_URL.');
      return;
    }
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
