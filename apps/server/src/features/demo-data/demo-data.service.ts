import type { DbDriver, Db } from '../../db/client';
import { lockKeyForTransaction } from '../../lib/advisory-lock';
import { generateDemoData, DEMO_SEED } from './demo-data.generate';
import {
  createDemoDataRepository,
  NO_RECORDS,
  totalOf,
  type RecordCounts,
} from './demo-data.repository';

export interface DemoSeedingInput {
  /** The `mockData` flag as the start sees it. */
  enabled: boolean;
  driver: DbDriver;
  /** DEMO_DATA_FORCE=1: seed a real PostgreSQL all the same. */
  force: boolean;
  demo: RecordCounts;
  real: RecordCounts;
}

export type DemoSeedingDecision =
  | { action: 'seed' }
  | { action: 'skip'; reason: 'flag-off' | 'already-seeded' }
  | { action: 'refuse'; reason: 'postgres' | 'real-records'; message: string };

/**
 * Whether a start seeds demo data (docs/decisions/010-demo-data.md). Off: nothing. Already
 * seeded: nothing (the same rows would be written). On a real PostgreSQL (DATABASE_URL), only
 * with DEMO_DATA_FORCE=1: such a database is usually someone's real one. Never into a database
 * that holds real donors, hospital accounts, requests, donations or stock: demo and real records
 * are never mixed.
 */
export function decideDemoSeeding(input: DemoSeedingInput): DemoSeedingDecision {
  if (!input.enabled) return { action: 'skip', reason: 'flag-off' };
  if (totalOf(input.demo) > 0) return { action: 'skip', reason: 'already-seeded' };
  if (input.driver === 'postgres' && !input.force) {
    return {
      action: 'refuse',
      reason: 'postgres',
      message:
        'mockData is on but DATABASE_URL points at a real PostgreSQL: demo data was not seeded. ' +
        'Set DEMO_DATA_FORCE=1 to seed it there anyway (remove it later with `npm run demo:remove`).',
    };
  }
  if (totalOf(input.real) > 0) {
    const { donors, requests, donations, stock } = input.real;
    return {
      action: 'refuse',
      reason: 'real-records',
      message:
        `mockData is on but the database already holds real records (${donors} accounts, ` +
        `${requests} blood requests, ${donations} donations, ${stock} stock lines): demo data ` +
        'is never mixed with real data, so none was seeded.',
    };
  }
  return { action: 'seed' };
}

export interface DemoDataLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface DemoDataDeps {
  db: Db;
  driver: DbDriver;
  force: boolean;
  now: () => number;
  isEnabled: () => Promise<boolean>;
  logger?: DemoDataLogger;
}

export interface SeedResult {
  decision: DemoSeedingDecision;
  /** Rows written (all zero unless seeded). */
  inserted: RecordCounts;
}

async function insertDemoData(tx: Db, now: number): Promise<RecordCounts> {
  const repo = createDemoDataRepository(tx);
  return repo.insertDataset(generateDemoData(await repo.readReference(), now, DEMO_SEED));
}

/** Seeds rows straight away, whatever the flag or the driver (the decision is the caller's). */
export async function seedDemoData(db: Db, now: number): Promise<RecordCounts> {
  return db.transaction((tx) => insertDemoData(tx, now));
}

export function createDemoDataService(deps: DemoDataDeps) {
  const { db } = deps;
  let present: boolean | null = null;

  async function countDemo(): Promise<RecordCounts> {
    return createDemoDataRepository(db).countDemo();
  }

  return {
    /** At start: seeds when the flag is on and the rules allow it, and logs why not. */
    async seedAtStart(): Promise<SeedResult> {
      // Read before the transaction: PGlite has one connection, which the transaction holds.
      const enabled = await deps.isEnabled();
      if (!enabled)
        return { decision: { action: 'skip', reason: 'flag-off' }, inserted: NO_RECORDS };
      const { decision, demo, inserted } = await db.transaction(async (tx) => {
        // Two servers starting together on one database: the second waits, then finds it seeded.
        await lockKeyForTransaction(tx, 'demo-data', 'seed');
        const repo = createDemoDataRepository(tx);
        const demo = await repo.countDemo();
        const decision = decideDemoSeeding({
          enabled,
          driver: deps.driver,
          force: deps.force,
          demo,
          real: await repo.countReal(),
        });
        const inserted =
          decision.action === 'seed' ? await insertDemoData(tx, deps.now()) : NO_RECORDS;
        return { decision, demo, inserted };
      });
      if (decision.action === 'refuse') {
        deps.logger?.warn({ reason: decision.reason }, decision.message);
      } else if (decision.action === 'seed') {
        deps.logger?.info(
          { ...inserted },
          'mockData: demo data seeded (every record is marked demo; `npm run demo:remove` deletes it)',
        );
      } else if (decision.reason === 'already-seeded') {
        deps.logger?.info({ ...demo }, 'mockData: demo data already present');
      }
      present = totalOf(demo) + totalOf(inserted) > 0;
      return { decision, inserted };
    },

    /**
     * Whether the database holds demo records (the public config's `demoData`). Read once, then
     * kept: only a start seeds, and `npm run demo:remove` runs with the server stopped.
     */
    async isPresent(): Promise<boolean> {
      present ??= totalOf(await countDemo()) > 0;
      return present;
    },

    countDemo,

    /** Deletes every demo record and nothing else. */
    async removeAll(): Promise<RecordCounts> {
      const removed = await db.transaction(async (tx) => createDemoDataRepository(tx).removeAll());
      present = false;
      return removed;
    },
  };
}

export type DemoDataService = ReturnType<typeof createDemoDataService>;
