import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { count, eq, getTableColumns, notInArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { dataImports, facilities, pincodes } from '../../db/schema';
import { serverRoot } from '../../lib/paths';
import {
  toFacilityRecord,
  toPincodeRecord,
  type FacilityRecord,
  type PincodeRecord,
} from './facilities.cleaning';

/** Where the reference CSVs live: apps/server/data (never ../shared at run time). */
export function dataDirectory(): string {
  return path.join(serverRoot(), 'data');
}

export const DATA_FILES = {
  facilities: 'blood-banks-india.csv',
  pincodes: 'india-pincode-centroids.csv',
} as const;

/**
 * Raised when a cleaning rule changes what a file yields: the stored hash covers the file and
 * this number, so databases loaded under older rules load the unchanged file again.
 */
export const CLEANING_RULES_VERSION = { facilities: 1, pincodes: 2 } as const;

export interface DatasetResult {
  name: string;
  /** True when the stored hash and row count matched, so nothing was written. */
  skipped: boolean;
  rows: number;
  ms: number;
}

export interface LoadOptions {
  /** Defaults to apps/server/data with DATA_FILES; tests pass small fixtures. */
  files?: { facilities?: string; pincodes?: string };
  logger?: { info(obj: object, msg: string): void };
  now?: () => number;
}

// Any fixed number: two servers starting together take turns loading.
const LOAD_LOCK_KEY = 727_401_002;
/** Rows per INSERT: PostgreSQL allows 65,535 parameters per statement. */
const BATCH_ROWS = 1000;

function parseCsv(bytes: Buffer): Record<string, string>[] {
  return parse(bytes, { columns: true, bom: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
}

/** `excluded.<column>` for every column but the key: an upsert that rewrites the row. */
function excludedSet(table: PgTable, key: string) {
  const set: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    // With `casing: 'snake_case'` a column without an explicit name is named after its key.
    const name =
      column.name === property
        ? property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
        : column.name;
    if (property !== key) set[property] = sql.raw(`excluded."${name}"`);
  }
  return set;
}

/** The stored row count when the table already holds this file's rows, else null. */
async function currentRows(
  tx: Db,
  name: string,
  sha256: string,
  table: PgTable,
): Promise<number | null> {
  const [stored] = await tx.select().from(dataImports).where(eq(dataImports.name, name)).limit(1);
  if (!stored || stored.sha256 !== sha256) return null;
  const [row] = await tx.select({ total: count() }).from(table);
  return Number(row?.total ?? 0) === stored.rowCount ? stored.rowCount : null;
}

async function recordImport(
  tx: Db,
  name: string,
  sha256: string,
  rows: number,
  ms: number,
  at: Date,
) {
  await tx
    .insert(dataImports)
    .values({ name, sha256, rowCount: rows, importedAt: at, durationMs: Math.round(ms) })
    .onConflictDoUpdate({
      target: dataImports.name,
      set: { sha256, rowCount: rows, importedAt: at, durationMs: Math.round(ms) },
    });
}

async function loadFacilities(tx: Db, records: FacilityRecord[], at: Date) {
  const set = excludedSet(facilities, 'id');
  for (let i = 0; i < records.length; i += BATCH_ROWS) {
    const batch = records.slice(i, i + BATCH_ROWS).map((record) => ({ ...record, updatedAt: at }));
    await tx.insert(facilities).values(batch).onConflictDoUpdate({ target: facilities.id, set });
  }
  const ids = records.map((record) => record.id);
  // Rows that left the file leave the table; requests naming them keep their text (FK set null).
  if (ids.length > 0) await tx.delete(facilities).where(notInArray(facilities.id, ids));
  else await tx.delete(facilities);
}

async function loadPincodes(tx: Db, records: PincodeRecord[]) {
  const set = excludedSet(pincodes, 'pincode');
  for (let i = 0; i < records.length; i += BATCH_ROWS) {
    await tx
      .insert(pincodes)
      .values(records.slice(i, i + BATCH_ROWS))
      .onConflictDoUpdate({ target: pincodes.pincode, set });
  }
  const keys = records.map((record) => record.pincode);
  if (keys.length > 0) await tx.delete(pincodes).where(notInArray(pincodes.pincode, keys));
  else await tx.delete(pincodes);
}

/** Duplicate keys in a file: the last row wins, as an upsert would decide. */
function lastWins<T>(records: T[], key: (record: T) => string): T[] {
  return [...new Map(records.map((record) => [key(record), record])).values()];
}

/**
 * Loads the blood bank directory and the PIN code centroids into their tables, idempotently:
 * a dataset whose hash (of the file and CLEANING_RULES_VERSION) and table row count match
 * `data_imports` is skipped (≈ 0 ms on
 * later starts); otherwise it is cleaned (facilities.cleaning.ts) and upserted in one
 * transaction, and rows no longer in the file are removed. Safe with several servers starting
 * at once (an advisory lock makes them take turns).
 */
export async function loadReferenceData(
  db: Db,
  options: LoadOptions = {},
): Promise<DatasetResult[]> {
  const now = options.now ?? Date.now;
  const dir = dataDirectory();
  const facilitiesFile = options.files?.facilities ?? path.join(dir, DATA_FILES.facilities);
  const pincodesFile = options.files?.pincodes ?? path.join(dir, DATA_FILES.pincodes);
  const datasets = [
    {
      name: 'facilities',
      rules: CLEANING_RULES_VERSION.facilities,
      file: facilitiesFile,
      table: facilities as PgTable,
      load: async (tx: Db, rows: Record<string, string>[], at: Date) => {
        const records = lastWins(
          rows.map(toFacilityRecord).filter((record): record is FacilityRecord => record !== null),
          (record) => record.id,
        );
        await loadFacilities(tx, records, at);
        return records.length;
      },
    },
    {
      name: 'pincodes',
      rules: CLEANING_RULES_VERSION.pincodes,
      file: pincodesFile,
      table: pincodes as PgTable,
      load: async (tx: Db, rows: Record<string, string>[]) => {
        const records = lastWins(
          rows.map(toPincodeRecord).filter((record): record is PincodeRecord => record !== null),
          (record) => record.pincode,
        );
        await loadPincodes(tx, records);
        return records.length;
      },
    },
  ];

  const results: DatasetResult[] = [];
  for (const dataset of datasets) {
    const started = performance.now();
    const bytes = await readFile(dataset.file);
    const sha256 = createHash('sha256')
      .update(bytes)
      .update(`\0cleaning rules ${dataset.rules}`)
      .digest('hex');
    const result = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOAD_LOCK_KEY})`);
      const current = await currentRows(tx, dataset.name, sha256, dataset.table);
      if (current !== null) return { name: dataset.name, skipped: true, rows: current };
      const rows = await dataset.load(tx, parseCsv(bytes), new Date(now()));
      await recordImport(
        tx,
        dataset.name,
        sha256,
        rows,
        performance.now() - started,
        new Date(now()),
      );
      return { name: dataset.name, skipped: false, rows };
    });
    const ms = performance.now() - started;
    results.push({ ...result, ms });
    options.logger?.info(
      { dataset: dataset.name, skipped: result.skipped, rows: result.rows, ms: Math.round(ms) },
      result.skipped ? 'reference data up to date' : 'reference data loaded',
    );
  }
  return results;
}
