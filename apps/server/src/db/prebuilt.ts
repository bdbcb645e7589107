import { createHash } from 'node:crypto';
import { is, Param, Placeholder, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client';
import { HOLDING, LAST_RESULT_ONLY, WITH_NEXT } from './merged-messages';
import { rememberPrepared } from './prepared-texts';
import { writtenTables } from './write-tracker';

/**
 * Statements whose SQL is built once per process (issue #20).
 *
 * Drizzle builds a statement's SQL on every call, and for a wide table that costs more than the
 * round trip: the 37-column insert of a blood request with `returning` took about 290 µs to build,
 * its 37-column select 160 µs (measured on the bench machine). Its own `prepare()` builds once
 * but is bound to the handle it was made on, and a transaction is a new handle per call. A
 * prebuilt statement keeps the text, the parameters (placeholders where the values go) and the
 * result mapping of one build, and runs them on whichever handle or transaction it is given.
 *
 * On PostgreSQL the statement is also named (a server-side prepared statement per pooled
 * connection), so PostgreSQL parses and plans it once per connection instead of once per call.
 *
 * `alongside` statements run in the same statement as the main one, as data-modifying CTEs
 * (`with a0 as (…), a1 as (…) <main>`): one round trip instead of one each. PostgreSQL runs each
 * exactly once, all see the same snapshot, and foreign keys are checked at the end of the whole
 * statement, so a history row may point at the request the main statement inserts. Their results
 * are not returned.
 */

/** What Drizzle's query builders (select, insert, update, delete) have inside. */
interface Preparable {
  _prepare(name?: string): DrizzlePrepared;
}
interface DrizzlePrepared {
  getQuery(): { sql: string; params: unknown[] };
  fields?: unknown;
  customResultMapper?: unknown;
  joinsNotNullableMap?: unknown;
  isResponseInArrayMode(): boolean;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}
interface DrizzleSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: unknown,
  ): DrizzlePrepared;
}

/** A statement that returns nothing, to run alongside the main one (an insert builder). */
export interface Alongside {
  toSQL(): { sql: string; params: unknown[] };
}

export interface StatementParts<R> {
  /** A Drizzle query builder; its result is the statement's. */
  main: PromiseLike<R>;
  alongside?: Alongside[];
}

/**
 * Where one parameter's value comes from: a constant of the build, or `values[name]`
 * (`values[part][key]` for a placeholder named `part.key`), encoded by its column.
 */
type Slot =
  | { constant: unknown }
  | { path: [string] | [string, string]; encoder?: { mapToDriverValue(value: unknown): unknown } };

interface Template {
  sql: string;
  slots: Slot[];
  name: string | undefined;
  fields: unknown;
  arrayMode: boolean;
  mapper: unknown;
  joins: unknown;
  /** It writes (an EXECUTE would hide its tables from the write tracker). */
  writes: boolean;
}

/** A placeholder for `prebuilt` statements: `ph('id')`. */
export const ph = (name: string): Placeholder => sql.placeholder(name);

/**
 * `$n` → `$(n + offset)` in a statement's text, outside quoted literals and identifiers (Drizzle
 * writes identifiers in double quotes and values as parameters).
 */
export function renumberParameters(text: string, offset: number): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote) {
      out += char;
      if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      out += char;
      continue;
    }
    if (char === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j]!)) j += 1;
      out += `$${Number(text.slice(i + 1, j)) + offset}`;
      i = j - 1;
      continue;
    }
    out += char;
  }
  return out;
}

function slotOf(param: unknown): Slot {
  let name: string;
  let encoder: { mapToDriverValue(value: unknown): unknown } | undefined;
  if (is(param, Placeholder)) name = param.name;
  else if (is(param, Param) && is(param.value, Placeholder)) {
    name = param.value.name;
    encoder = param.encoder as typeof encoder;
  } else return { constant: param };
  const dot = name.indexOf('.');
  const path: [string] | [string, string] =
    dot < 0 ? [name] : [name.slice(0, dot), name.slice(dot + 1)];
  return { path, encoder };
}

function buildTemplate(parts: StatementParts<unknown>): Template {
  const prepared = (parts.main as unknown as Preparable)._prepare();
  const main = prepared.getQuery();
  const params = [...main.params];
  const ctes: string[] = [];
  for (const [index, statement] of (parts.alongside ?? []).entries()) {
    const built = statement.toSQL();
    ctes.push(`a${index} as (${renumberParameters(built.sql, params.length)})`);
    params.push(...built.params);
  }
  const text = ctes.length > 0 ? `with ${ctes.join(', ')} ${main.sql}` : main.sql;
  const name = `bdms_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  rememberPrepared(name, text);
  return {
    sql: text,
    slots: params.map(slotOf),
    name,
    fields: prepared.fields,
    arrayMode: prepared.isResponseInArrayMode(),
    mapper: prepared.customResultMapper,
    joins: prepared.joinsNotNullableMap,
    writes: writtenTables(text) !== null,
  };
}

/**
 * The parameters with `values` in the placeholders, encoded by their columns as Drizzle would
 * (a Date to its ISO text, an object to JSON); a null stays SQL NULL (Drizzle's own filling would
 * hand it to the encoder: JSON `null` in a jsonb column).
 */
function fill(slots: readonly Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => {
    if ('constant' in slot) return slot.constant;
    const [first, second] = slot.path;
    const holder = second === undefined ? values : (values[first] as Record<string, unknown>);
    const key = second ?? first;
    if (!holder || !(key in holder)) {
      throw new Error(`prebuilt statement: no value for "${slot.path.join('.')}"`);
    }
    const value = holder[key];
    if (value === null || value === undefined) return null;
    return slot.encoder ? slot.encoder.mapToDriverValue(value) : value;
  });
}

async function run<R>(template: Template, db: Db, values: Record<string, unknown>): Promise<R> {
  const session = (db as unknown as { session: DrizzleSession }).session;
  if (template.name && holding(session) && preparedOn(db)?.[template.name] === template.sql) {
    // Something waits to go in front of it (the transaction's BEGIN, a held write): as plain
    // text it goes in the same message, one round trip fewer (db/merged-messages.ts).
    const text = executeText(template, values);
    if (text) return run<R>({ ...template, sql: text, slots: [], name: undefined }, db, {});
  }
  const prepared = session.prepareQuery(
    { sql: template.sql, params: fill(template.slots, values) },
    template.fields,
    template.name,
    template.arrayMode,
    template.mapper,
  );
  if (template.joins !== undefined) prepared.joinsNotNullableMap = template.joins;
  return (await prepared.execute()) as R;
}

/** A string as a literal: node-postgres' escaping, which it only needs for ' and \. */
const quoted = (text: string) => (/['\\]/.test(text) ? pg.escapeLiteral(text) : `'${text}'`);

/**
 * A value as a literal of the simple protocol, as PostgreSQL would read the parameter; null for
 * one whose text node-postgres makes otherwise (an array, a Buffer, an object) and for text with
 * a NUL in it, which then go as parameters. Drizzle hands over dates and JSON already as text.
 */
function literalOf(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return quoted(value.toISOString());
  // A NUL would end the message's text there (the simple protocol's text is NUL-terminated).
  if (typeof value === 'string') return value.includes('\u0000') ? null : quoted(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return quoted(String(value));
  }
  return null;
}

/** Whether the connection a transaction holds has something waiting (db/merged-messages.ts). */
function holding(session: DrizzleSession): boolean {
  const client = (session as unknown as { client?: Record<symbol, unknown> }).client;
  const holds = client?.[HOLDING] as (() => boolean) | undefined;
  return holds?.() ?? false;
}

/** The prepared statements of the connection a transaction holds (node-postgres only). */
function preparedOn(db: Db): Record<string, string> | undefined {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client as
    { connection?: { parsedStatements?: Record<string, string> } } | undefined;
  return client?.connection?.parsedStatements;
}

/**
 * `leading` (a statement without parameters: an advisory lock) then this read, in one message
 * when the transaction's connection has the read prepared already (node-postgres):
 * `leading; execute <name>(<values as literals>)`. Each statement of a message takes its own
 * snapshot, so the read sees what was committed before the lock was granted, exactly as if it
 * were sent after it; PostgreSQL runs the plan it keeps for the read. Otherwise (PGlite, a
 * connection that has not prepared it yet) the two go one after the other. One round trip
 * fewer on every locked transaction that starts by reading (issue #20).
 */
async function runAfter<R>(
  template: Template,
  db: Db,
  leading: string,
  values: Record<string, unknown>,
): Promise<R> {
  const prepared = preparedOn(db);
  const execute =
    template.name && prepared?.[template.name] === template.sql && !template.writes
      ? executeText(template, values)
      : null;
  if (!execute) {
    await db.execute(sql.raw(leading));
    return run<R>(template, db, values);
  }
  const text = `${LAST_RESULT_ONLY}${leading}; ${execute}`;
  return run<R>({ ...template, sql: text, slots: [], name: undefined }, db, {});
}

/**
 * `execute <name>(<values as literals>)`: the prepared statement, run from a plain text; null when
 * a value cannot be written as a literal here.
 */
function executeText(template: Template, values: Record<string, unknown>): string | null {
  const literals: string[] = [];
  for (const value of fill(template.slots, values)) {
    const literal = literalOf(value);
    if (literal === null) return null;
    literals.push(literal);
  }
  return `execute ${template.name}(${literals.join(', ')})`;
}

/**
 * Holds this statement to go in front of the transaction's next one, COMMIT included, in the
 * same message (db/merged-messages.ts `WITH_NEXT`): for a write whose result the caller does not
 * need, on a transaction whose connection has it prepared (node-postgres). Resolves with false,
 * having sent nothing, when it cannot: the caller runs it as usual. A failure shows on the
 * statement it goes with and fails the transaction as it would have. One round trip fewer
 * (issue #20).
 */
async function runWithNext(
  template: Template,
  db: Db,
  values: Record<string, unknown>,
): Promise<boolean> {
  if (!template.name || preparedOn(db)?.[template.name] !== template.sql) return false;
  const execute = executeText(template, values);
  if (!execute) return false;
  await run({ ...template, sql: `${WITH_NEXT}${execute}`, slots: [], name: undefined }, db, {});
  return true;
}

/**
 * A prebuilt statement: run it, run it after a leading statement (`runAfter`), or hold it for
 * the transaction's next statement (`runWithNext`).
 */
export interface Prebuilt<V, R> {
  (db: Db, values: V): Promise<R>;
  after(db: Db, leading: string, values: V): Promise<R>;
  withNext(db: Db, values: V): Promise<boolean>;
}

/**
 * A statement built on its first call, with `ph(name)` placeholders where `values` go, then run
 * as built on any handle or transaction.
 */
export function prebuilt<V extends Record<string, unknown>, R>(
  build: (db: Db) => StatementParts<R>,
): Prebuilt<V, R> {
  let template: Template | undefined;
  const get = (db: Db) => (template ??= buildTemplate(build(db) as StatementParts<unknown>));
  return Object.assign((db: Db, values: V) => run<R>(get(db), db, values), {
    after: (db: Db, leading: string, values: V) => runAfter<R>(get(db), db, leading, values),
    withNext: (db: Db, values: V) => runWithNext(get(db), db, values),
  });
}

/**
 * `prebuilt` for statements whose shape depends on which values are given (an update of some
 * columns, an insert that leaves the others to their defaults): one build per shape, keyed by
 * `shapeOf(values)`. Shapes must come from the code, never from input (each is kept for good).
 */
export function prebuiltByShape<V extends Record<string, unknown>, R>(
  shapeOf: (values: V) => string,
  build: (db: Db, values: V) => StatementParts<R>,
): Prebuilt<V, R> {
  const templates = new Map<string, Template>();
  const get = (db: Db, values: V) => {
    const shape = shapeOf(values);
    let template = templates.get(shape);
    if (!template) {
      template = buildTemplate(build(db, values) as StatementParts<unknown>);
      templates.set(shape, template);
    }
    return template;
  };
  return Object.assign((db: Db, values: V) => run<R>(get(db, values), db, values), {
    after: (db: Db, leading: string, values: V) =>
      runAfter<R>(get(db, values), db, leading, values),
    withNext: (db: Db, values: V) => runWithNext(get(db, values), db, values),
  });
}

/**
 * `{ key: ph('part.key'), … }` for each key of `row` that is not undefined: the placeholders of
 * one part of a statement, whose values are then passed as `{ part: row }`.
 */
export function placeholdersFor<T extends Record<string, unknown>>(
  row: T,
  part: string,
): { [K in keyof T]: Placeholder } {
  const out: Record<string, Placeholder> = {};
  for (const key of Object.keys(row)) if (row[key] !== undefined) out[key] = ph(`${part}.${key}`);
  return out as { [K in keyof T]: Placeholder };
}

/**
 * The shape of the parts `names` of `values`: each one's keys that are not undefined, in their
 * order (objects built by the same code have the same order; another order only costs a build).
 */
export function shapeOfParts(values: Record<string, unknown>, names: readonly string[]): string {
  let shape = '';
  for (const name of names) {
    const part = values[name] as Record<string, unknown> | undefined;
    if (!part) continue;
    shape += `${name}(`;
    for (const key in part) if (part[key] !== undefined) shape += `${key},`;
    shape += ')';
  }
  return shape;
}
