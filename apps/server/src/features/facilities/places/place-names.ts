import type { BuildOutput, Confidence, OfficeType, Point } from './centroid-method';
import { medianPoint } from './centroid-method';

/**
 * Place names ("Secunderabad", "Koramangala") → a point, from the same India Post directory as
 * the PIN points (apps/server/data/README.md, "Place names"): every head and sub post office's
 * name (towns and city localities) with the point it was counted at (or its PIN's point when its
 * own was dropped), and every district with the median of its PIN points.
 */

export type PlaceKind = 'office' | 'district';

export interface Place extends Point {
  name: string;
  kind: PlaceKind;
  /** The office's PIN code; null for a district. */
  pincode: string | null;
  district: string | null;
  state: string | null;
  confidence: Confidence;
}

/**
 * The form names are compared in: lower case, accents and punctuation dropped, spaces single
 * ("Koramangala VI Bk" → "koramangala vi bk", "Secunderabad H.O" → "secunderabad h o").
 */
export function placeKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const LOWER: Record<Confidence, Confidence> = { high: 'medium', medium: 'low', low: 'low' };
const RANK: Record<OfficeType, number> = { HO: 0, SO: 1, BO: 2 };

export function buildPlaces(built: BuildOutput): Place[] {
  const pins = new Map(built.pincodes.map((p) => [p.pincode, p]));
  const offices = new Map<string, Place & { rank: number }>();
  for (const office of built.offices) {
    // Branch offices are villages: 130,000 names that would make the start-up load ten times
    // slower. A village is found by its PIN code; its head or sub office's town by name.
    if (office.type === 'BO') continue;
    const pin = pins.get(office.pincode);
    const key = placeKey(office.name);
    if (!pin || !key) continue;
    const point = office.placed ?? pin;
    const place = {
      name: office.name,
      kind: 'office' as const,
      pincode: office.pincode,
      district: pin.district,
      state: pin.state,
      latitude: Math.round(point.latitude * 1e5) / 1e5,
      longitude: Math.round(point.longitude * 1e5) / 1e5,
      // An office whose own point was dropped stands at its PIN's point: less sure.
      confidence: office.placed ? pin.confidence : LOWER[pin.confidence],
      rank: RANK[office.type],
    };
    const id = `${key}|${office.pincode}`;
    const known = offices.get(id);
    if (!known || place.rank < known.rank) offices.set(id, place);
  }

  const districts = new Map<
    string,
    { name: string; state: string | null; points: Point[]; sure: Point[] }
  >();
  for (const pin of built.pincodes) {
    if (!pin.district) continue;
    const id = `${placeKey(pin.district)}|${pin.state ?? ''}`;
    const entry = districts.get(id) ?? {
      name: pin.district,
      state: pin.state,
      points: [],
      sure: [],
    };
    entry.points.push(pin);
    if (pin.confidence !== 'low') entry.sure.push(pin);
    districts.set(id, entry);
  }

  const places: Place[] = [...offices.values()].map(({ rank: _rank, ...place }) => place);
  for (const entry of districts.values()) {
    const point = medianPoint(entry.sure.length ? entry.sure : entry.points);
    places.push({
      name: entry.name,
      kind: 'district',
      pincode: null,
      district: entry.name,
      state: entry.state,
      latitude: Math.round(point.latitude * 1e5) / 1e5,
      longitude: Math.round(point.longitude * 1e5) / 1e5,
      // A district spans tens of km: its point is a rough guess for anyone in it.
      confidence: 'low',
    });
  }
  return places.sort(
    (a, b) =>
      placeKey(a.name).localeCompare(placeKey(b.name)) ||
      a.kind.localeCompare(b.kind) ||
      (a.pincode ?? '').localeCompare(b.pincode ?? '') ||
      (a.state ?? '').localeCompare(b.state ?? ''),
  );
}
