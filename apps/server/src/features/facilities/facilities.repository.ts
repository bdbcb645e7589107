import { boundingBox, type FacilityFilters } from '@bdms/shared';
import { and, asc, count, eq, gte, ilike, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import {
  facilities,
  pincodes,
  places,
  type FacilityRow,
  type PincodeRow,
  type PlaceRow,
} from '../../db/schema';
import { queryAll } from '../../lib/query-all';

export interface SearchFilters extends FacilityFilters {
  tokens: string[];
  query: string;
  limit: number;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The directory's filters as conditions: text filters match whole values case-insensitively
 * (ILIKE without wildcards), the flags match `true` or, when asked for `false`, anything else
 * (false or unknown).
 */
export function filterConditions(filters: FacilityFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.state) conditions.push(ilike(facilities.state, escapeLike(filters.state)));
  if (filters.district) conditions.push(ilike(facilities.district, escapeLike(filters.district)));
  if (filters.city) conditions.push(ilike(facilities.city, escapeLike(filters.city)));
  if (filters.category) conditions.push(ilike(facilities.category, escapeLike(filters.category)));
  const flags = [
    [filters.components, facilities.components],
    [filters.apheresis, facilities.apheresis],
    [filters.open24x7, facilities.is24x7],
  ] as const;
  for (const [wanted, column] of flags) {
    if (wanted === true) conditions.push(sql`${column} is true`);
    else if (wanted === false) conditions.push(sql`${column} is not true`);
  }
  return conditions;
}

export interface FacetCounts {
  total: number;
  withLocation: number;
  components: number;
  apheresis: number;
  open24x7: number;
  districts: { state: string; district: string | null; count: number }[];
  categories: { category: string; count: number }[];
}

export function createFacilitiesRepository(db: Db) {
  return {
    async findById(id: string): Promise<FacilityRow | undefined> {
      const [row] = await db.select().from(facilities).where(eq(facilities.id, id)).limit(1);
      return row;
    },

    /** Whether pg_trgm is installed (the migration skips it where it cannot be created). */
    async hasTrigrams(): Promise<boolean> {
      const rows = await executeRows<{ found: number }>(
        db,
        sql`select 1 as found from pg_extension where extname = 'pg_trgm'`,
      );
      return rows.length > 0;
    },

    /**
     * Misspelling-tolerant search: a row is a candidate when any query word is similar to a
     * word of its search text (`<%`, pg_trgm word similarity ≥ 0.6, served by the GIN index);
     * the score is the mean over the query words of their best word similarity, plus a little
     * for the whole query's similarity to the name.
     */
    async searchTrigram(filters: SearchFilters): Promise<(FacilityRow & { score: number })[]> {
      const { tokens } = filters;
      const anyWord = sql.join(
        tokens.map((token) => sql`${token} <% ${facilities.search}`),
        sql` or `,
      );
      const mean = sql`(${sql.join(
        tokens.map((token) => sql`word_similarity(${token}, ${facilities.search})`),
        sql` + `,
      )}) / ${tokens.length}::float8`;
      const score = sql<number>`(${mean} * 0.9 + similarity(${filters.query}, lower(${facilities.name})) * 0.1)::float8`;
      const conditions: SQL[] = [sql`(${anyWord})`, ...filterConditions(filters)];
      const rows = await db
        .select({ facility: facilities, score })
        .from(facilities)
        .where(and(...conditions))
        .orderBy(sql`${score} desc`, asc(facilities.name), asc(facilities.id))
        .limit(filters.limit);
      return rows.map((row) => ({ ...row.facility, score: Number(row.score) }));
    },

    /** The fallback without pg_trgm: rows containing query words, scored by how many. */
    async searchPlain(filters: SearchFilters): Promise<(FacilityRow & { score: number })[]> {
      const hits = filters.tokens.map(
        (token) =>
          sql`(case when ${facilities.search} ilike ${`%${escapeLike(token)}%`} then 1 else 0 end)`,
      );
      const score = sql<number>`((${sql.join(hits, sql` + `)})::float8 / ${filters.tokens.length})`;
      const conditions: SQL[] = [sql`${score} > 0`, ...filterConditions(filters)];
      const rows = await db
        .select({ facility: facilities, score })
        .from(facilities)
        .where(and(...conditions))
        .orderBy(sql`${score} desc`, asc(facilities.name), asc(facilities.id))
        .limit(filters.limit);
      return rows.map((row) => ({ ...row.facility, score: Number(row.score) }));
    },

    async directory(
      filters: FacilityFilters & { page: number; pageSize: number },
    ): Promise<{ items: FacilityRow[]; total: number }> {
      const conditions = filterConditions(filters);
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(facilities)
            .where(where)
            .orderBy(
              asc(facilities.state),
              asc(facilities.district),
              asc(facilities.name),
              asc(facilities.id),
            )
            .limit(filters.pageSize)
            .offset((filters.page - 1) * filters.pageSize),
        () => db.select({ total: count() }).from(facilities).where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    /**
     * Facilities with a point inside the bounding box of the circle and matching the filters
     * (the caller cuts to the circle). The box's latitude range is served by the
     * (latitude, longitude) index.
     */
    async inBox(
      lat: number,
      lng: number,
      radiusKm: number,
      filters: FacilityFilters = {},
    ): Promise<FacilityRow[]> {
      const box = boundingBox({ latitude: lat, longitude: lng }, radiusKm);
      return db
        .select()
        .from(facilities)
        .where(
          and(
            gte(facilities.latitude, box.minLat),
            lte(facilities.latitude, box.maxLat),
            gte(facilities.longitude, box.minLng),
            lte(facilities.longitude, box.maxLng),
            ...filterConditions(filters),
          ),
        );
    },

    async findPincode(pincode: string): Promise<PincodeRow | undefined> {
      const [row] = await db.select().from(pincodes).where(eq(pincodes.pincode, pincode)).limit(1);
      return row;
    },

    /**
     * Place names whose comparison form (`placeKey`) is `key` or starts with it, best first: the
     * exact name, then names where it is a whole first word ("secunderabad" → "secunderabad
     * bazar"), then other prefixes; within each, surer points, offices before districts, shorter
     * names. Served by the `text_pattern_ops` index on `key`.
     */
    async searchPlaces(key: string, limit: number): Promise<PlaceRow[]> {
      const prefix = `${escapeLike(key)}%`;
      const rank = sql`case when ${places.key} = ${key} then 0
        when ${places.key} like ${`${escapeLike(key)} %`} then 1 else 2 end`;
      const sure = sql`case ${places.confidence} when 'high' then 0 when 'medium' then 1 else 2 end`;
      return db
        .select()
        .from(places)
        .where(sql`${places.key} like ${prefix}`)
        .orderBy(rank, sure, asc(places.kind), sql`length(${places.key})`, asc(places.id))
        .limit(limit);
    },

    /** Counts for the filters: totals, flags, (state, district) pairs and categories. */
    async facetCounts(): Promise<FacetCounts> {
      const n = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
      const [[totals], districts, categories] = await queryAll(db, [
        () =>
          db
            .select({
              total: sql<number>`count(*)::int`,
              withLocation: n(sql`${facilities.latitude} is not null`),
              components: n(sql`${facilities.components} is true`),
              apheresis: n(sql`${facilities.apheresis} is true`),
              open24x7: n(sql`${facilities.is24x7} is true`),
            })
            .from(facilities),
        () =>
          db
            .select({
              state: facilities.state,
              district: facilities.district,
              count: sql<number>`count(*)::int`,
            })
            .from(facilities)
            .groupBy(facilities.state, facilities.district),
        () =>
          db
            .select({ category: facilities.category, count: sql<number>`count(*)::int` })
            .from(facilities)
            .where(isNotNull(facilities.category))
            .groupBy(facilities.category),
      ]);
      return {
        total: Number(totals?.total ?? 0),
        withLocation: Number(totals?.withLocation ?? 0),
        components: Number(totals?.components ?? 0),
        apheresis: Number(totals?.apheresis ?? 0),
        open24x7: Number(totals?.open24x7 ?? 0),
        districts: districts.map((row) => ({ ...row, count: Number(row.count) })),
        categories: categories.map((row) => ({
          category: row.category as string,
          count: Number(row.count),
        })),
      };
    },
  };
}

export type FacilitiesRepository = ReturnType<typeof createFacilitiesRepository>;
