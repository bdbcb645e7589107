import { boundingBox } from '@bdms/shared';
import { and, asc, count, eq, gte, ilike, lte, sql, type SQL } from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { facilities, type FacilityRow } from '../../db/schema';

export interface SearchFilters {
  tokens: string[];
  query: string;
  state?: string;
  limit: number;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

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
      const conditions: SQL[] = [sql`(${anyWord})`];
      if (filters.state) conditions.push(ilike(facilities.state, escapeLike(filters.state)));
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
      const conditions: SQL[] = [sql`${score} > 0`];
      if (filters.state) conditions.push(ilike(facilities.state, escapeLike(filters.state)));
      const rows = await db
        .select({ facility: facilities, score })
        .from(facilities)
        .where(and(...conditions))
        .orderBy(sql`${score} desc`, asc(facilities.name), asc(facilities.id))
        .limit(filters.limit);
      return rows.map((row) => ({ ...row.facility, score: Number(row.score) }));
    },

    async directory(filters: {
      state?: string;
      district?: string;
      city?: string;
      category?: string;
      page: number;
      pageSize: number;
    }): Promise<{ items: FacilityRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (filters.state) conditions.push(ilike(facilities.state, escapeLike(filters.state)));
      if (filters.district)
        conditions.push(ilike(facilities.district, escapeLike(filters.district)));
      if (filters.city) conditions.push(ilike(facilities.city, escapeLike(filters.city)));
      if (filters.category)
        conditions.push(ilike(facilities.category, escapeLike(filters.category)));
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [totals]] = await Promise.all([
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
        db.select({ total: count() }).from(facilities).where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    /** Facilities with a point inside the bounding box of the circle (the caller cuts to it). */
    async inBox(lat: number, lng: number, radiusKm: number): Promise<FacilityRow[]> {
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
          ),
        );
    },
  };
}

export type FacilitiesRepository = ReturnType<typeof createFacilitiesRepository>;
