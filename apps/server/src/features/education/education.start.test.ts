import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKeys } from '../../config/secrets';
import { executeRows, type Db } from '../../db/client';
import { loggerOptions } from '../../plugins/logger';
import { startServer } from '../../server';
import { createScratchPostgresDatabase, wantsPostgres } from '../../test/test-database';
import { readContent } from './education.content';

let dataDir: string;
let databaseEnv: Record<string, string> = {};
let dropDatabase = async () => {};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdms-content-start-'));
  if (wantsPostgres()) {
    const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL ?? '');
    // On PostgreSQL the shared secrets are required (issue #19).
    const vapid = generateVapidKeys();
    databaseEnv = {
      DATABASE_URL: scratch.url,
      JWT_SECRET: 'content-start-test-'.padEnd(40, 'x'),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    };
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  msg: string;
  written?: { inserted: number; updated: number; unpublished: number };
  ms?: number;
}

async function start() {
  const lines: LogLine[] = [];
  const logger = pino(loggerOptions({ logLevel: 'info' }), {
    write: (line: string) => void lines.push(JSON.parse(line) as LogLine),
  });
  const server = await startServer(
    {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      ...databaseEnv,
    },
    { print: () => {}, logger },
  );
  return { server, loaded: lines.filter((line) => line.msg.startsWith('Loaded ')) };
}

async function rowVersions(db: Db): Promise<string[]> {
  const rows = await executeRows<{ v: string }>(
    db,
    sql`select 'c:' || slug || ':' || xmin::text as v from education_content
        union all select 'f:' || id || ':' || xmin::text from faqs
        union all select 'k:' || slug || ':' || xmin::text from education_categories
        union all select 'p:' || slug || ':' || xmin::text from pages
        union all select 't:' || kind || ':' || key || ':' || language || ':' || xmin::text
          from content_translations
        order by 1`,
  );
  return rows.map((row) => row.v);
}

describe('startServer and apps/server/content', () => {
  it('loads the content at start, logs it once, and a second start writes nothing', async () => {
    // 16 articles, 32 FAQs, 9 categories, 2 pages, and every translation.
    const rows = 59 + (await readContent()).translations.length;
    const first = await start();
    let versions: string[];
    try {
      expect(first.loaded).toHaveLength(1);
      expect(first.loaded[0]).toMatchObject({
        msg: 'Loaded 16 articles, 32 FAQs',
        written: { inserted: rows, updated: 0, unpublished: 0 },
      });
      versions = await rowVersions(first.server.database.db);
      expect(versions).toHaveLength(rows);
      const featured = await fetch(`${first.server.address}/api/public/education/featured`);
      expect(((await featured.json()) as { data: unknown[] }).data).toHaveLength(3);
    } finally {
      await first.server.close();
    }

    const second = await start();
    try {
      expect(second.loaded).toHaveLength(1);
      expect(second.loaded[0]).toMatchObject({
        msg: 'Loaded 16 articles, 32 FAQs',
        written: { inserted: 0, updated: 0, unpublished: 0 },
      });
      expect(await rowVersions(second.server.database.db)).toEqual(versions);
    } finally {
      await second.server.close();
    }
    console.info(
      `content at start (${wantsPostgres() ? 'postgres' : 'pglite'}): first ${first.loaded[0]!.ms} ms, ` +
        `second ${second.loaded[0]!.ms} ms (no writes)`,
    );
  });
});
