import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { dataImports, facilities, pincodes, places } from '../../db/schema';
import { serverRoot } from '../../lib/paths';
import {
  toFacilityRecord,
  toPincodeRecord,
  toPlaceRecord,
  type FacilityRecord,
  type PincodeRecord,
  type PlaceRecord,
} from './facilities.cleaning';

/** Where the reference CSVs live: apps/server/data (never ../shared at run time). */
export function dataDirectory(): string {
  return path.join(serverRoot(), 'data');
}

export const DATA_FILES = {
  facilities: 'blood-banks-india.csv',
  pincodes: 'india-pincode-centroids.csv',
  places: 'india-places.csv',
} as const;

/**
 * Raised when a cleaning rule changes what a file yields: the stored hash covers the file and
 * this number, so databases loaded under older rules load the unchanged file again.
 */
export const CLEANING_RULES_VERSION = { facilities: 2, pincodes: 3, places: 1 } as const;

export interface DatasetResult {
  name: string;
  /** True when the stored hash and row count matched, so nothing was written. */
  skipped: boolean;
  rows: number;
  ms: number;
}

export interface LoadOptions {
  /** Defaults to apps/server/data with DATA_FILES; tests pass small fixtures. */
  files?: { facilities?: string; pincodes?: string; places?: string };
  logger?: { info(obj: object, msg: string): void };
  now?: () => number;
}

// Any fixed number: two servers starting together take turns loading.
const LOAD_LOCK_KEY = 727_401_002;
/** Rows per INSERT (one JSON parameter each). */
const BATCH_ROWS = 20_000;

function parseCsv(bytes: Buffer): Record<string, string>[] {
  return parse(bytes, { columns: true, bom: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
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

/** The SQL name of a column: with `casing: 'snake_case'` an unnamed column is named after its key. */
const columnName = (property: string, column: PgColumn) =>
  column.name === property ? property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : column.name;

/**
 * Writes `records` into `table` (insert, or rewrite the row with the same `key`), then removes
 * the rows whose key is not among them, so the table holds exactly the file. Each statement
 * carries its rows as one JSON parameter read by json_to_recordset: binding a parameter per
 * cell is what made multi-row INSERTs slow on PGlite (≈ 3× slower for the PIN codes).
 * `records` hold every column, named by the table's property names.
 */
async function replaceRows(tx: Db, table: PgTable, key: string, records: object[]) {
  const columns = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const keyColumn = columns.find(([property]) => property === key);
  if (!keyColumn) throw new Error(`No column ${key}`);
  const target = columns.map(([property, column]) => quote(columnName(property, column)));
  const source = columns.map(([property]) => `r.${quote(property)}`);
  const shape = columns.map(([property, column]) => `${quote(property)} ${column.getSQLType()}`);
  const updates = columns
    .filter(([property]) => property !== key)
    .map(([property, column]) => {
      const name = quote(columnName(property, column));
      return `${name} = excluded.${name}`;
    });
  const keyName = quote(columnName(...keyColumn));
  for (let i = 0; i < records.length; i += BATCH_ROWS) {
    const rows = JSON.stringify(records.slice(i, i + BATCH_ROWS));
    await tx.execute(
      sql`insert into ${table} (${sql.raw(target.join(', '))})
        select ${sql.raw(source.join(', '))}
        from json_to_recordset(${rows}::json) as r(${sql.raw(shape.join(', '))})
        on conflict (${sql.raw(keyName)}) do update set ${sql.raw(updates.join(', '))}`,
    );
  }
  const keys = JSON.stringify(
    records.map((record) => String((record as Record<string, unknown>)[key])),
  );
  // Rows that left the file leave the table; requests naming a facility keep their text (FK set null).
  await tx.execute(
    sql`delete from ${table} where ${sql.raw(keyName)}::text not in
      (select value from json_array_elements_text(${keys}::json))`,
  );
}

/** Duplicate keys in a file: the last row wins, as an upsert would decide. */
function lastWins<T>(records: T[], key: (record: T) => string): T[] {
  return [...new Map(records.map((record) => [key(record), record])).values()];
}

/**
 * Loads the blood bank directory, the PIN code points and the place names into their tables,
 * idempotently:
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
  const placesFile = options.files?.places ?? path.join(dir, DATA_FILES.places);
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
        await replaceRows(
          tx,
          facilities,
          'id',
          records.map((record) => ({ ...record, updatedAt: at })),
        );
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
        await replaceRows(tx, pincodes, 'pincode', records);
        return records.length;
      },
    },
    {
      name: 'places',
      rules: CLEANING_RULES_VERSION.places,
      file: placesFile,
      table: places as PgTable,
      load: async (tx: Db, rows: Record<string, string>[]) => {
        const records = rows
          .map((row, index) => toPlaceRecord(row, index + 1))
          .filter((record): record is PlaceRecord => record !== null);
        await replaceRows(tx, places, 'id', records);
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
