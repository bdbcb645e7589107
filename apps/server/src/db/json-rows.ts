import { getTableColumns, is, SQL, sql, type Placeholder } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DRIZZLE_OPTIONS, type Db } from './client';

/**
 * An insert of any number of rows whose text does not change with their number (issue #20):
 * the rows go as one JSON parameter, unpacked by `jsonb_to_recordset`. A statement with
 * `values (…), (…)` is a new text for each number of rows, built by Drizzle on every call and
 * planned by PostgreSQL every time; this one is built once, and on PostgreSQL prepared once per
 * connection (db/prebuilt.ts).
 *
 * Every column of the table is listed. A column left out of a row takes what Drizzle's own
 * insert would give it: the column's `$defaultFn` (or `$onUpdate`) here, else its database
 * default (`coalesce` with that default; such a column is NOT NULL, so a null in it could only
 * have failed). A nullable column with a database default cannot tell "left out" from null in
 * JSON: a table with one is refused when the statement is made.
 */

const casing = new CasingCache(DRIZZLE_OPTIONS.casing);

interface ColumnPlan {
  key: string;
  name: string;
  column: PgColumn;
  /** jsonb and json columns carry the value itself in the JSON; others their driver form. */
  json: boolean;
}

interface Insertable {
  shouldDisableInsert(): boolean;
}

const plans = new WeakMap<PgTable, ColumnPlan[]>();

function planOf(table: PgTable): ColumnPlan[] {
  let plan = plans.get(table);
  if (plan) return plan;
  plan = Object.entries(getTableColumns(table))
    // As Drizzle's insert lists them (generated columns are not inserted).
    .filter(([, column]) => !(column as unknown as Insertable).shouldDisableInsert())
    .map(([key, column]) => {
      if (column.hasDefault && column.default !== undefined && !column.notNull) {
        throw new Error(`json rows: ${column.name} is nullable with a database default`);
      }
      const type = column.getSQLType();
      return { key, name: casing.getColumnCasing(column), column, json: /^jsonb?$/.test(type) };
    });
  plans.set(table, plan);
  return plan;
}

/**
 * `insert into <table> (every column) select … from jsonb_to_recordset(<rows>)`, with `rows` a
 * placeholder (db/prebuilt.ts) whose value is `encodeRows(table, rows)`.
 */
export function insertJsonRows(db: Db, table: PgTable, rows: Placeholder) {
  const plan = planOf(table);
  const selected = sql.join(
    plan.map(({ name, column }) => {
      const value = sql`r.${sql.identifier(name)}`;
      if (column.default === undefined) return value;
      const fallback = is(column.default, SQL) ? column.default : sql.param(column.default, column);
      return sql`coalesce(${value}, ${fallback})`;
    }),
    sql`, `,
  );
  const definition = sql.join(
    plan.map(({ name, column }) => sql`${sql.identifier(name)} ${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  return db
    .insert(table)
    .select(sql`select ${selected} from jsonb_to_recordset(${rows}::jsonb) as r(${definition})`);
}

/**
 * A lone UTF-16 surrogate (half of a character, as a hostile client may send) as U+FFFD: what
 * node-postgres' UTF-8 encoding makes of it in a parameter. In JSON it would be a `\udc00`
 * escape, which PostgreSQL refuses, failing the statement.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (_key: string, value: unknown) =>
  typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value;

/** The JSON text of `rows` for `insertJsonRows`: each value as Drizzle would send it. */
export function encodeRows<T extends PgTable>(
  table: T,
  rows: readonly T['$inferInsert'][],
): string {
  const plan = planOf(table);
  return JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const { key, name, column, json } of plan) {
        let value = (row as Record<string, unknown>)[key];
        if (value === undefined) {
          if (column.defaultFn) value = column.defaultFn();
          else if (column.default === undefined && column.onUpdateFn) value = column.onUpdateFn();
        }
        if (value === undefined || value === null) continue;
        if (is(value, SQL)) throw new Error(`json rows: ${name} is SQL, not a value`);
        out[name] = json ? value : column.mapToDriverValue(value);
      }
      return out;
    }),
    wellFormed,
  );
}
