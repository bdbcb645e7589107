import { INDIA_BOUNDS, isInBox, PLACE_CONFIDENCES, type PlaceConfidence } from '@bdms/shared';
import { placeKey } from './places/place-names';

/**
 * The cleaning rules of apps/server/data/README.md, as pure functions over CSV cells. The source
 * files are kept exactly as published; these rules decide what the tables hold.
 */

/** How the source spells "missing": empty, NA, N/A, #N/A (any case). */
const MISSING = new Set(['', 'na', 'n/a', '#n/a']);

/** A trimmed cell, or null when it is one of the spellings of "missing". */
export function cleanText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return MISSING.has(trimmed.toLowerCase()) ? null : trimmed;
}

/** Points the README lists as wrong-but-plausible: placeholders, not the blood bank's location. */
export const PLACEHOLDER_POINTS = {
  /** Shared by 11 "District Hospital Blood Bank" rows in four states. */
  districtHospital: { latitude: 26.6869797, longitude: 79.4703885 },
  /** Patna, used for rows in Gujarat, Nagaland and Telangana: wrong outside Bihar. */
  patna: { latitude: 25.6351644, longitude: 85.0415328 },
} as const;
/** Panipat, Haryana, whose row points to Patna. */
export const PLACEHOLDER_ROWS = new Set([638]);

const samePoint = (a: { latitude: number; longitude: number }, lat: number, lng: number) =>
  Math.abs(a.latitude - lat) < 1e-7 && Math.abs(a.longitude - lng) < 1e-7;

function parseNumber(value: string | null | undefined): number | null {
  const text = cleanText(value);
  if (text === null || !/^[+-]?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

/**
 * The facility's point, or nulls: both values must parse and fall in India's box (lat 6–37,
 * lon 68–98), and the point must not be a known placeholder.
 */
export function cleanCoordinates(
  latitudeCell: string | null | undefined,
  longitudeCell: string | null | undefined,
  context: { srNo: number; state: string | null },
): { latitude: number | null; longitude: number | null } {
  const none = { latitude: null, longitude: null };
  const latitude = parseNumber(latitudeCell);
  const longitude = parseNumber(longitudeCell);
  if (latitude === null || longitude === null) return none;
  if (!isInBox({ latitude, longitude }, INDIA_BOUNDS)) return none;
  if (PLACEHOLDER_ROWS.has(context.srNo)) return none;
  if (samePoint(PLACEHOLDER_POINTS.districtHospital, latitude, longitude)) return none;
  if (
    samePoint(PLACEHOLDER_POINTS.patna, latitude, longitude) &&
    context.state?.trim().toLowerCase() !== 'bihar'
  ) {
    return none;
  }
  return { latitude, longitude };
}

// "24x7", "24 X 7", "24×7", "24*7", "24/7", "24BY 7", "24 Hours", "24hrs.", "24 H", "24 hours 365 days",
// "Round the clock", optionally followed by a parenthetical remark.
const ROUND_THE_CLOCK =
  /^(24\s*(x|×|\*|\/|by)\s*7|24\s*(hours?|hrs?|hr|h)\.?(\s*365\s*days)?|round\s+the\s+clock)\.?\s*(\(.*\))?$/i;

/** True when the Service Time cell is one of the spellings of 24×7 service. */
export function isRoundTheClock(serviceTime: string | null | undefined): boolean {
  const text = cleanText(serviceTime);
  return text !== null && ROUND_THE_CLOCK.test(text);
}

/** YES/Y → true, NO/N → false, anything else (empty, N/A, the unexplained "2") → null. */
export function cleanYesNo(value: string | null | undefined): boolean | null {
  const text = cleanText(value)?.toLowerCase();
  if (text === 'yes' || text === 'y') return true;
  if (text === 'no' || text === 'n') return false;
  return null;
}

/** A 6-digit Indian PIN code (not starting with 0), else null ("520 008", "362266,", "16"). */
export function cleanPincode(value: string | null | undefined): string | null {
  const text = cleanText(value);
  return text !== null && /^[1-9]\d{5}$/.test(text) ? text : null;
}

/** The text the trigram search runs on: name, city, district and state, lower-cased. */
export function searchText(parts: (string | null | undefined)[]): string {
  return parts
    .map((part) => cleanText(part))
    .filter((part): part is string => part !== null)
    .join(' ')
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

export interface FacilityRecord {
  id: string;
  srNo: number;
  name: string;
  category: string | null;
  address: string | null;
  city: string | null;
  district: string | null;
  state: string;
  pincode: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  website: string | null;
  latitude: number | null;
  longitude: number | null;
  components: boolean | null;
  apheresis: boolean | null;
  serviceTime: string | null;
  is24x7: boolean;
  licenceNumber: string | null;
  licenceObtained: string | null;
  licenceRenewed: string | null;
  search: string;
}

/** One row of blood-banks-india.csv (header names as in the file) → a facilities row; null to skip. */
export function toFacilityRecord(row: Record<string, string | undefined>): FacilityRecord | null {
  const srNo = Number(cleanText(row['Sr No']));
  const name = cleanText(row['Blood Bank Name']);
  const state = cleanText(row['State']);
  if (!Number.isInteger(srNo) || srNo <= 0 || !name || !state) return null;
  const city = cleanText(row['City']);
  const district = cleanText(row['District']);
  const serviceTime = cleanText(row['Service Time']);
  return {
    id: `bb-${srNo}`,
    srNo,
    name,
    category: cleanText(row['Category']),
    address: cleanText(row['Address']),
    city,
    district,
    state,
    pincode: cleanPincode(row['Pincode']),
    phone: cleanText(row['Contact No']),
    mobile: cleanText(row['Mobile']),
    email: cleanText(row['Email']),
    website: cleanText(row['Website']),
    ...cleanCoordinates(row['Latitude'], row['Longitude'], { srNo, state }),
    components: cleanYesNo(row['Blood Component Available']),
    apheresis: cleanYesNo(row['Apheresis']),
    serviceTime,
    is24x7: isRoundTheClock(serviceTime),
    licenceNumber: cleanText(row['License #']),
    licenceObtained: cleanText(row['Date License Obtained']),
    licenceRenewed: cleanText(row['Date of Renewal']),
    search: searchText([name, city, district, state]),
  };
}

export interface PincodeRecord {
  pincode: string;
  district: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  confidence: PlaceConfidence;
  source: string;
}

/** The file's confidence; a file without the column (before #15) is `medium`. */
function cleanConfidence(value: string | null | undefined): PlaceConfidence {
  const text = cleanText(value)?.toLowerCase();
  return (PLACE_CONFIDENCES as readonly string[]).includes(text ?? '')
    ? (text as PlaceConfidence)
    : 'medium';
}

/** One row of india-pincode-centroids.csv → a pincodes row; null when unusable. */
export function toPincodeRecord(row: Record<string, string | undefined>): PincodeRecord | null {
  const pincode = cleanPincode(row['pincode']);
  const latitude = parseNumber(row['latitude']);
  const longitude = parseNumber(row['longitude']);
  if (!pincode || latitude === null || longitude === null) return null;
  // 9xxxxx is the Army Postal Service: no fixed place (the file's 900056, 900099 and 999999
  // point at unrelated cities), so such a PIN code must not place anybody.
  if (pincode.startsWith('9')) return null;
  if (!isInBox({ latitude, longitude }, INDIA_BOUNDS)) return null;
  return {
    pincode,
    district: cleanText(row['district']),
    state: cleanText(row['state']),
    latitude,
    longitude,
    confidence: cleanConfidence(row['confidence']),
    source: cleanText(row['source']) ?? 'india-post',
  };
}

export interface PlaceRecord {
  id: number;
  key: string;
  name: string;
  kind: 'office' | 'district';
  pincode: string | null;
  district: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  confidence: PlaceConfidence;
}

/**
 * One row of india-places.csv (its `index`, from 1, is the id) → a places row; null when it has
 * no name or no usable point. Army Postal Service PIN codes (9xxxxx) place nobody.
 */
export function toPlaceRecord(
  row: Record<string, string | undefined>,
  index: number,
): PlaceRecord | null {
  const name = cleanText(row['name']);
  const key = name ? placeKey(name) : '';
  const latitude = parseNumber(row['latitude']);
  const longitude = parseNumber(row['longitude']);
  const kind = cleanText(row['kind']);
  if (!name || !key || latitude === null || longitude === null) return null;
  if (kind !== 'office' && kind !== 'district') return null;
  if (!isInBox({ latitude, longitude }, INDIA_BOUNDS)) return null;
  const pincode = cleanPincode(row['pincode']);
  if (pincode?.startsWith('9')) return null;
  return {
    id: index,
    key,
    name,
    kind,
    pincode,
    district: cleanText(row['district']),
    state: cleanText(row['state']),
    latitude,
    longitude,
    confidence: cleanConfidence(row['confidence']),
  };
}
