import { haversineKm, INDIA_BOUNDS, isInBox } from '@bdms/shared';

/**
 * How a PIN code becomes a point (apps/server/data/README.md, "PIN code points"): pure
 * functions, run by `apps/server/scripts/build-places.ts` over India Post's office directory,
 * GeoNames' postal codes and the blood banks that state a PIN code. Deterministic: the same
 * inputs give the same points, in the same order.
 *
 * India Post's office coordinates are often wrong: swapped, off by tens of km, or written in
 * degrees-and-minutes and read as decimals (500003's head office lies 49 km from Secunderabad).
 * So a PIN's point is not the plain median of its offices: each office offers its point (and,
 * where it could be such a slip, the repaired point), the candidates are scored by how many
 * offices (head and sub offices weigh more than branch offices) stand near them and by whether
 * independent references agree (GeoNames' point for the PIN, the neighbouring PINs of the same
 * sorting district, the blood banks that state the PIN), and the point is the weighted median of
 * the offices around the best candidate. Offices far from it are dropped.
 */

export type OfficeType = 'HO' | 'SO' | 'BO';
export type Confidence = 'high' | 'medium' | 'low';
export type PointSource =
  'india-post' | 'india-post-repaired' | 'geonames' | 'neighbouring-pins' | 'blood-banks';

export interface Point {
  latitude: number;
  longitude: number;
}

export interface Office {
  pincode: string;
  name: string;
  type: OfficeType;
  district: string | null;
  state: string | null;
  /** As published, swapped back when latitude and longitude were exchanged; null when unusable. */
  point: Point | null;
}

export interface GeonamesPostalCode {
  pincode: string;
  place: string;
  state: string | null;
  district: string | null;
  point: Point;
  /** GeoNames' accuracy: 1 estimated, 4 a GeoNames place, 6 a centroid. */
  accuracy: number;
}

export interface PincodePoint extends Point {
  pincode: string;
  district: string | null;
  state: string | null;
  confidence: Confidence;
  source: PointSource;
  /** Offices whose point (or repaired point) the PIN's point is made from. */
  offices: number;
}

/** Where each office ended up: its own (possibly repaired) point, or none when it was dropped. */
export interface PlacedOffice extends Office {
  placed: Point | null;
}

export const METHOD = {
  /** Head and sub offices are main post offices whose position is kept with more care. */
  weights: { HO: 3, SO: 2, BO: 1 } as Record<OfficeType, number>,
  /** Offices within this distance of a candidate support it. */
  supportKm: 5,
  /** The point is the weighted median of the offices this close to the best candidate. */
  coreKm: 8,
  /** Offices farther than this from the best candidate are dropped from the PIN. */
  memberKm: 15,
  /** Agreement with a reference: GeoNames' PIN points are coarse (often the town's point). */
  agreeKm: { geonames: 25, neighbours: 20, banks: 10 },
  /** Neighbouring PIN codes (by number, same sorting district) whose points make a reference. */
  neighbours: 6,
  /** How much each agreeing reference adds to a candidate's score (its support is 0–1). */
  bonus: { geonames: 0.6, neighbours: 0.6, banks: 2 },
  /** India Post's point and GeoNames' this close confirm each other (no blood bank overrides them). */
  confirmKm: 10,
  /** A single blood bank is believable this close to the neighbouring PINs' point. */
  bankNeighboursKm: 40,
} as const;

/** The coordinate-wise weighted median (a weight counts as that many copies). */
export function weightedMedian(points: { point: Point; weight: number }[]): Point {
  const axis = (pick: (p: Point) => number) => {
    const sorted = points
      .map((entry) => ({ value: pick(entry.point), weight: entry.weight }))
      .sort((a, b) => a.value - b.value);
    const total = sorted.reduce((sum, entry) => sum + entry.weight, 0);
    let run = 0;
    for (let i = 0; i < sorted.length; i++) {
      run += sorted[i]!.weight;
      if (run * 2 > total) return sorted[i]!.value;
      if (run * 2 === total) return (sorted[i]!.value + sorted[i + 1]!.value) / 2;
    }
    return sorted.at(-1)!.value;
  };
  return {
    latitude: axis((p) => p.latitude),
    longitude: axis((p) => p.longitude),
  };
}

export const medianPoint = (points: Point[]): Point =>
  weightedMedian(points.map((point) => ({ point, weight: 1 })));

const round = (value: number) => Math.round(value * 1e5) / 1e5;

/** A number, or a cell such as `21.9161 N` (a trailing hemisphere letter or dash is ignored). */
function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*[NE-]?\s*$/i.exec(value);
  return match ? Number(match[1]) : null;
}

/** A usable point from two published cells: numbers in India's box, swapped back when exchanged. */
export function parsePoint(latitude: unknown, longitude: unknown): Point | null {
  const lat = toNumber(latitude);
  const lng = toNumber(longitude);
  if (lat === null || lng === null) return null;
  if (isInBox({ latitude: lat, longitude: lng }, INDIA_BOUNDS))
    return { latitude: lat, longitude: lng };
  if (isInBox({ latitude: lng, longitude: lat }, INDIA_BOUNDS))
    return { latitude: lng, longitude: lat };
  return null;
}

/**
 * The points an office could have meant when its coordinates were written in degrees and
 * minutes: decimal degrees taken for degrees.minutes (17.3933° written as 17°39.33', i.e.
 * 17.6556: the fraction is divided by 0.6 on entry, so multiply by 0.6), and degrees.minutes
 * taken for decimals (17.2345 meaning 17°23.45'). Candidates only: one is used only when
 * the references prefer it to the published point.
 */
export function repairedPoints(point: Point): Point[] {
  const fix = (value: number, f: (fraction: number) => number | null) => {
    const degrees = Math.floor(value);
    const fraction = f(value - degrees);
    return fraction === null ? null : degrees + fraction;
  };
  const variants = [
    (fraction: number) => fraction * 0.6,
    (fraction: number) => (fraction < 0.6 ? fraction / 0.6 : null),
  ];
  const out: Point[] = [];
  for (const variant of variants) {
    const latitude = fix(point.latitude, variant);
    const longitude = fix(point.longitude, variant);
    if (latitude === null || longitude === null) continue;
    const repaired = { latitude, longitude };
    if (haversineKm(point, repaired) > 1 && isInBox(repaired, INDIA_BOUNDS)) out.push(repaired);
  }
  return out;
}

/** The PIN code's sorting district: its first three digits. */
export const sortingDistrict = (pincode: string) => pincode.slice(0, 3);

interface SortingArea {
  center: Point;
  /** Offices of the sorting district farther than this from its centre are dropped. */
  limitKm: number;
}

/**
 * Each sorting district's centre (median of its offices) and how far its offices may lie from
 * it: three times the distance within which 90 % of them lie, at least 60 km. Catches points in
 * another state; the nearer mistakes are left to the references.
 */
export function sortingAreas(offices: Office[]): Map<string, SortingArea> {
  const byArea = new Map<string, Point[]>();
  for (const office of offices) {
    if (!office.point) continue;
    const key = sortingDistrict(office.pincode);
    const list = byArea.get(key) ?? [];
    list.push(office.point);
    byArea.set(key, list);
  }
  const areas = new Map<string, SortingArea>();
  for (const [key, points] of [...byArea].sort((a, b) => a[0].localeCompare(b[0]))) {
    const center = medianPoint(points);
    const distances = points.map((point) => haversineKm(center, point)).sort((a, b) => a - b);
    const p90 = distances[Math.min(distances.length - 1, Math.floor(distances.length * 0.9))]!;
    areas.set(key, { center, limitKm: Math.max(60, p90 * 3) });
  }
  return areas;
}

interface Candidate {
  office: Office;
  point: Point;
  repaired: boolean;
}

export interface References {
  geonames?: Point | null;
  neighbours?: Point | null;
  /** The median of the blood banks that state the PIN, how many they are, and whether two or
   * more of them lie within 5 km of it. */
  banks?: Point | null;
  bankCount?: number;
  banksConsistent?: boolean;
}

export interface Choice {
  point: Point;
  source: PointSource;
  confidence: Confidence;
  /** The offices kept, each at the point it was counted at. */
  members: { office: Office; point: Point }[];
}

/**
 * One PIN code's point from its offices' candidates and the references (see the module's note).
 * Returns null when there is nothing to go by.
 */
export function choosePoint(
  offices: Office[],
  references: References,
  areas?: Map<string, SortingArea>,
): Choice | null {
  const candidates: Candidate[] = [];
  for (const office of offices) {
    if (!office.point) continue;
    const area = areas?.get(sortingDistrict(office.pincode));
    const within = (point: Point) => !area || haversineKm(area.center, point) <= area.limitKm;
    if (within(office.point)) candidates.push({ office, point: office.point, repaired: false });
    for (const point of repairedPoints(office.point)) {
      if (within(point)) candidates.push({ office, point, repaired: true });
    }
  }
  const { geonames, neighbours, banks } = references;
  const agreements = (point: Point) => ({
    geonames: !!geonames && haversineKm(point, geonames) <= METHOD.agreeKm.geonames,
    neighbours: !!neighbours && haversineKm(point, neighbours) <= METHOD.agreeKm.neighbours,
    banks: !!banks && haversineKm(point, banks) <= METHOD.agreeKm.banks,
  });
  const bonus = (agree: ReturnType<typeof agreements>) =>
    (agree.geonames ? METHOD.bonus.geonames : 0) +
    (agree.neighbours ? METHOD.bonus.neighbours : 0) +
    (agree.banks ? METHOD.bonus.banks : 0);

  const totalWeight = [...new Set(candidates.map((c) => c.office))].reduce(
    (sum, office) => sum + METHOD.weights[office.type],
    0,
  );
  /** Each office counts once, at its nearest candidate point within `km` of `center`. */
  const around = (center: Point, km: number) => {
    const nearest = new Map<Office, { point: Point; km: number; repaired: boolean }>();
    for (const candidate of candidates) {
      const d = haversineKm(center, candidate.point);
      if (d > km) continue;
      const best = nearest.get(candidate.office);
      if (!best || d < best.km) {
        nearest.set(candidate.office, {
          point: candidate.point,
          km: d,
          repaired: candidate.repaired,
        });
      }
    }
    return [...nearest].map(([office, hit]) => ({ office, ...hit }));
  };

  let best: { score: number; point: Point; repaired: boolean; order: number } | null = null;
  candidates.forEach((candidate, order) => {
    const support = around(candidate.point, METHOD.supportKm);
    const weight = support.reduce((sum, hit) => sum + METHOD.weights[hit.office.type], 0);
    // A repaired point must earn its place: it scores only what the references give it.
    const score =
      (candidate.repaired ? 0 : weight / totalWeight) + bonus(agreements(candidate.point));
    if (candidate.repaired && score === 0) return;
    const better =
      !best ||
      score > best.score + 1e-9 ||
      (Math.abs(score - best.score) <= 1e-9 && !candidate.repaired && best.repaired);
    if (better) best = { score, point: candidate.point, repaired: candidate.repaired, order };
  });

  // GeoNames' point competes too, on what the other references say of it.
  const geonamesScore = geonames ? bonus({ ...agreements(geonames), geonames: false }) : -1;
  const chosen = best as { score: number; point: Point; repaired: boolean } | null;
  let choice: Choice | null = null;
  if (chosen && !(geonamesScore > chosen.score + 1e-9)) {
    const agree = agreements(chosen.point);
    // A cluster nobody confirms, where GeoNames and the neighbours agree elsewhere, loses to them.
    const referencesElsewhere =
      !agree.geonames &&
      !agree.neighbours &&
      !agree.banks &&
      !!geonames &&
      agreements(geonames).neighbours;
    if (!referencesElsewhere) {
      const members = around(chosen.point, METHOD.memberKm);
      // The PIN's town is where its head or sub office is: branch offices are its villages.
      const core = members.filter((hit) => hit.km <= METHOD.coreKm);
      const main = core.filter((hit) => hit.office.type !== 'BO');
      const point = weightedMedian(
        (main.length ? main : core).map((hit) => ({
          point: hit.point,
          weight: METHOD.weights[hit.office.type],
        })),
      );
      const evidence =
        Number(
          new Set(members.map((hit) => `${hit.point.latitude},${hit.point.longitude}`)).size >= 2,
        ) +
        Number(agree.geonames) +
        Number(agree.neighbours) +
        Number(agree.banks);
      const repaired = members.some((hit) => hit.repaired);
      choice = {
        point,
        source: repaired ? 'india-post-repaired' : 'india-post',
        confidence:
          evidence >= 2 && !(repaired && evidence < 3) ? 'high' : evidence >= 1 ? 'medium' : 'low',
        members: members.map((hit) => ({ office: hit.office, point: hit.point })),
      };
    }
  }
  if (!choice && geonames) {
    const agree = agreements(geonames);
    choice = {
      point: geonames,
      source: 'geonames',
      confidence: agree.banks || agree.neighbours ? 'medium' : 'low',
      members: [],
    };
  }
  if (!choice && neighbours) {
    choice = { point: neighbours, source: 'neighbouring-pins', confidence: 'low', members: [] };
  }
  // Last resort, the blood banks that state the PIN: when India Post and GeoNames do not confirm
  // each other there and a bank is believable (within 40 km of the neighbouring PINs), or when
  // two or more banks stand within 5 km of each other (two hospitals' addresses in the PIN).
  if (banks && references.bankCount) {
    const confirmed =
      !!choice &&
      choice.source !== 'geonames' &&
      choice.source !== 'neighbouring-pins' &&
      !!geonames &&
      haversineKm(choice.point, geonames) <= METHOD.confirmKm;
    const believable =
      references.banksConsistent ||
      (!!neighbours && haversineKm(banks, neighbours) <= METHOD.bankNeighboursKm);
    // Two or more hospitals at one place that state the PIN outweigh both directories.
    const overrides = references.banksConsistent || (!confirmed && believable);
    if (overrides && (!choice || haversineKm(choice.point, banks) > METHOD.agreeKm.banks)) {
      return { point: banks, source: 'blood-banks', confidence: 'medium', members: [] };
    }
  }
  return choice;
}

export interface BuildInput {
  offices: Office[];
  geonames: GeonamesPostalCode[];
  /** Blood bank points by the PIN code they state (used as a cross-check, never as a point). */
  banks?: Map<string, Point[]>;
}

export interface BuildOutput {
  pincodes: PincodePoint[];
  offices: PlacedOffice[];
}

const mostCommon = (values: (string | null)[]): string | null => {
  const counts = new Map<string, number>();
  for (const value of values) if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
};

/** Every PIN code's point, from the offices and the references (see the module's note). */
export function buildPincodePoints(input: BuildInput): BuildOutput {
  const areas = sortingAreas(input.offices);
  const officesByPin = new Map<string, Office[]>();
  for (const office of input.offices) {
    const list = officesByPin.get(office.pincode) ?? [];
    list.push(office);
    officesByPin.set(office.pincode, list);
  }
  const geonamesByPin = new Map<string, GeonamesPostalCode[]>();
  for (const row of input.geonames) {
    const list = geonamesByPin.get(row.pincode) ?? [];
    list.push(row);
    geonamesByPin.set(row.pincode, list);
  }
  const pins = [...new Set([...officesByPin.keys(), ...geonamesByPin.keys()])].sort();

  // First pass: the plain weighted median of each PIN's offices inside its sorting district,
  // the raw material of the neighbours' reference.
  const firstPass = new Map<string, Point>();
  for (const pin of pins) {
    const area = areas.get(sortingDistrict(pin));
    const points = (officesByPin.get(pin) ?? [])
      .filter(
        (office) =>
          office.point && (!area || haversineKm(area.center, office.point) <= area.limitKm),
      )
      .map((office) => ({ point: office.point as Point, weight: METHOD.weights[office.type] }));
    if (points.length) firstPass.set(pin, weightedMedian(points));
  }
  const firstPins = [...firstPass.keys()].sort();
  const indexOf = new Map(firstPins.map((pin, i) => [pin, i]));
  const neighboursOf = (pin: string): Point | null => {
    // The nearest PIN numbers on either side within the same sorting district.
    const area = sortingDistrict(pin);
    let low = indexOf.get(pin) ?? lowerBound(firstPins, pin);
    let high = indexOf.has(pin) ? low + 1 : low;
    low -= 1;
    const found: Point[] = [];
    while (found.length < METHOD.neighbours) {
      const lowPin = low >= 0 ? firstPins[low] : undefined;
      const highPin = high < firstPins.length ? firstPins[high] : undefined;
      const lowOk = lowPin !== undefined && sortingDistrict(lowPin) === area;
      const highOk = highPin !== undefined && sortingDistrict(highPin) === area;
      if (!lowOk && !highOk) break;
      const takeLow =
        lowOk && (!highOk || Number(pin) - Number(lowPin) <= Number(highPin) - Number(pin));
      if (takeLow) {
        found.push(firstPass.get(lowPin!)!);
        low -= 1;
      } else {
        found.push(firstPass.get(highPin!)!);
        high += 1;
      }
    }
    return found.length >= 2 ? medianPoint(found) : null;
  };

  const pincodes: PincodePoint[] = [];
  const placed = new Map<Office, Point>();
  for (const pin of pins) {
    const offices = officesByPin.get(pin) ?? [];
    const geo = geonamesByPin.get(pin) ?? [];
    const bankPoints = input.banks?.get(pin) ?? [];
    const references: References = {
      geonames: geo.length ? medianPoint(geo.map((row) => row.point)) : null,
      neighbours: neighboursOf(pin),
      banks: bankPoints.length ? medianPoint(bankPoints) : null,
      bankCount: bankPoints.length,
    };
    if (references.banks) {
      const center = references.banks;
      references.banksConsistent =
        bankPoints.filter((point) => haversineKm(point, center) <= 5).length >= 2;
    }
    const choice = choosePoint(offices, references, areas);
    if (!choice) continue;
    for (const member of choice.members) placed.set(member.office, member.point);
    pincodes.push({
      pincode: pin,
      district:
        mostCommon(offices.map((o) => o.district)) ?? mostCommon(geo.map((g) => g.district)),
      state: mostCommon(offices.map((o) => o.state)) ?? mostCommon(geo.map((g) => g.state)),
      latitude: round(choice.point.latitude),
      longitude: round(choice.point.longitude),
      confidence: choice.confidence,
      source: choice.source,
      offices: choice.members.length,
    });
  }
  return {
    pincodes,
    offices: input.offices.map((office) => ({ ...office, placed: placed.get(office) ?? null })),
  };
}

function lowerBound(sorted: string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
