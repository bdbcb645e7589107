import {
  BLOOD_COMPONENTS,
  BLOOD_REQUEST_STATUSES,
  INDIAN_STATES,
  type BloodComponent,
  type BloodRequestStatus,
  type BloodType,
} from '@bdms/shared';
import type {
  bloodRequestHistory,
  bloodRequestMatches,
  NewBloodRequestRow,
  NewDonationRow,
  NewUserRow,
  bloodStock,
} from '../../db/schema';
import { hospitalNameKey } from '../../lib/blood-request-links';
import { FEMALE_NAMES, MALE_NAMES, SURNAMES } from './names';
import { createRandom, type Random } from './prng';

/** The fixed seed: the same database gets the same demo data every time. */
export const DEMO_SEED = 20_211_021;
export const DEMO_DONOR_COUNT = 320;
/** Requests per state or union territory: at least this many, more where the directory is big. */
export const DEMO_REQUESTS_PER_STATE = 3;
/** Blood centres with demo stock per state (those with a point in the directory). */
export const DEMO_STOCK_CENTRES_PER_STATE = 2;

/**
 * Demo phones: `+91 0` followed by nine digits. An Indian national number never starts with 0
 * (it is the trunk prefix; the National Numbering Plan gives mobiles 6–9 and landlines an STD
 * code from 1–8), so no subscriber can ever have one of these. Donors are `+91 00000 0nnnn`,
 * request contacts `+91 00001 0nnnn`.
 */
export const DEMO_PHONE_PREFIX = '+910';
export const DEMO_EMAIL_DOMAIN = 'example.invalid';
/** Never a valid argon2 hash: nobody can sign in as a demo account. */
export const DEMO_PASSWORD_HASH = '!demo-account-no-password';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A PIN code point of the reference data (`pincodes`), its state in INDIAN_STATES's spelling. */
export interface ReferencePoint {
  pincode: string;
  district: string | null;
  state: string;
  latitude: number;
  longitude: number;
}

/** A directory blood centre with a point (`facilities`), its state in INDIAN_STATES's spelling. */
export interface ReferenceFacility {
  id: string;
  name: string;
  city: string | null;
  district: string | null;
  state: string;
  pincode: string | null;
  address: string | null;
  latitude: number;
  longitude: number;
  /** The directory says it separates components; null when it does not say. */
  components: boolean | null;
}

export interface DemoReference {
  /** Sorted by PIN code. */
  points: readonly ReferencePoint[];
  /** Sorted by id. */
  facilities: readonly ReferenceFacility[];
}

export interface DemoDataset {
  users: NewUserRow[];
  donations: NewDonationRow[];
  requests: NewBloodRequestRow[];
  history: (typeof bloodRequestHistory.$inferInsert)[];
  matches: (typeof bloodRequestMatches.$inferInsert)[];
  stock: (typeof bloodStock.$inferInsert)[];
}

/** The cities demo donors live in, by their head post office's PIN code (India Post). */
export const DEMO_DONOR_CITIES = [
  ['New Delhi', '110001'],
  ['Mumbai', '400001'],
  ['Kolkata', '700001'],
  ['Chennai', '600001'],
  ['Bengaluru', '560001'],
  ['Hyderabad', '500001'],
  ['Pune', '411001'],
  ['Ahmedabad', '380001'],
  ['Jaipur', '302001'],
  ['Lucknow', '226001'],
  ['Kochi', '682001'],
  ['Thiruvananthapuram', '695001'],
  ['Bhopal', '462001'],
  ['Indore', '452001'],
  ['Patna', '800001'],
  ['Bhubaneswar', '751001'],
  ['Guwahati', '781001'],
  ['Chandigarh', '160017'],
  ['Nagpur', '440001'],
  ['Coimbatore', '641001'],
  ['Visakhapatnam', '530001'],
  ['Ranchi', '834001'],
  ['Raipur', '492001'],
  ['Dehradun', '248001'],
  ['Srinagar', '190001'],
  ['Shimla', '171001'],
  ['Panaji', '403001'],
  ['Shillong', '793001'],
  ['Imphal', '795001'],
  ['Agartala', '799001'],
  ['Varanasi', '221001'],
  ['Mysuru', '570001'],
] as const;

// Roughly India's ABO/Rh distribution (B+ and O+ most common, negatives rare).
const BLOOD_TYPE_WEIGHTS: readonly (readonly [BloodType, number])[] = [
  ['B+', 32],
  ['O+', 29],
  ['A+', 21],
  ['AB+', 8],
  ['B-', 3],
  ['O-', 3],
  ['A-', 2],
  ['AB-', 2],
];

/** The interface language a donor of that state most likely picked (the app's locales). */
const STATE_LANGUAGE: Record<string, string> = {
  'Uttar Pradesh': 'hi',
  Bihar: 'hi',
  'Madhya Pradesh': 'hi',
  Rajasthan: 'hi',
  Delhi: 'hi',
  Haryana: 'hi',
  Jharkhand: 'hi',
  Chhattisgarh: 'hi',
  Uttarakhand: 'hi',
  'Himachal Pradesh': 'hi',
  Maharashtra: 'mr',
  'Tamil Nadu': 'ta',
  'Andhra Pradesh': 'te',
  Telangana: 'te',
  'West Bengal': 'bn',
  Tripura: 'bn',
};

/** Each status's path from creation, with who made each step. */
const STATUS_PATHS: Record<
  BloodRequestStatus,
  readonly (readonly [BloodRequestStatus, 'guest' | 'admin' | 'system'])[]
> = {
  unconfirmed: [['unconfirmed', 'guest']],
  pending: [['pending', 'guest']],
  verified: [
    ['pending', 'guest'],
    ['verified', 'admin'],
  ],
  in_progress: [
    ['pending', 'guest'],
    ['verified', 'admin'],
    ['in_progress', 'system'],
  ],
  fulfilled: [
    ['pending', 'guest'],
    ['verified', 'admin'],
    ['in_progress', 'system'],
    ['fulfilled', 'admin'],
  ],
  cancelled: [
    ['pending', 'guest'],
    ['cancelled', 'guest'],
  ],
  expired: [
    ['pending', 'guest'],
    ['verified', 'admin'],
    ['expired', 'system'],
  ],
};

/** States in the reference data are spelt several ways ("Jammu & Kashmir", "The Dadra …"). */
const STATE_KEYS = new Map<string, string>(
  INDIAN_STATES.map((state) => [stateKey(state.name), state.name]),
);
STATE_KEYS.set(stateKey('Daman and Diu'), 'Dadra and Nagar Haveli and Daman and Diu');
STATE_KEYS.set(stateKey('Dadra and Nagar Haveli'), 'Dadra and Nagar Haveli and Daman and Diu');

function stateKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/^\s*the\s+/, '')
    .replace(/[^a-z]+/g, '');
}

/** The INDIAN_STATES name of a state as the reference data spells it; null when unknown. */
export function canonicalState(name: string | null | undefined): string | null {
  if (!name) return null;
  return STATE_KEYS.get(stateKey(name)) ?? null;
}

function uuidFrom(random: Random): string {
  let hex = '';
  for (let i = 0; i < 32; i += 1) hex += random.int(0, 15).toString(16);
  // Version 4, variant 10xx: a well-formed UUID, drawn from the seeded sequence.
  const variant = ((random.int(0, 3) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const TRACKING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
function trackingCodeFrom(random: Random): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += random.pick([...TRACKING_ALPHABET]);
  return code;
}

function demoPhone(series: 0 | 1, n: number): string {
  return `${DEMO_PHONE_PREFIX}000${series}${String(n).padStart(5, '0')}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function personName(random: Random): { fullName: string; gender: 'male' | 'female' } {
  const gender = random.chance(0.5) ? 'female' : 'male';
  const given = random.pick(gender === 'female' ? FEMALE_NAMES : MALE_NAMES);
  return { fullName: `${given} ${random.pick(SURNAMES)}`, gender };
}

/**
 * The whole demo dataset, from the seed, the reference data and `now` alone: the same inputs give
 * the same rows, ids included (a second run inserts nothing new). Dates are relative to `now`, so
 * the platform looks alive on the day it is seeded. Every row carries `isDemo: true`.
 */
export function generateDemoData(
  reference: DemoReference,
  now: number,
  seed = DEMO_SEED,
): DemoDataset {
  const random = createRandom(seed);
  const pointsByPin = new Map(reference.points.map((point) => [point.pincode, point]));
  const pointsByDistrict = groupBy(reference.points, (p) => `${p.state}|${p.district ?? ''}`);
  const pointsByState = groupBy(reference.points, (p) => p.state);
  const facilitiesByState = groupBy(reference.facilities, (f) => f.state);

  // Donors: around the cities found in the reference data, at PIN code points of their district.
  const cities = DEMO_DONOR_CITIES.flatMap(([name, pincode]) => {
    const head = pointsByPin.get(pincode);
    if (!head) return [];
    const district = pointsByDistrict.get(`${head.state}|${head.district ?? ''}`) ?? [head];
    return [{ name, points: district.slice(0, 15) }];
  });
  const users: NewUserRow[] = [];
  const donations: NewDonationRow[] = [];
  if (cities.length > 0) {
    for (let i = 1; i <= DEMO_DONOR_COUNT; i += 1) {
      const city = random.pick(cities);
      const point = random.pick(city.points);
      const { fullName, gender } = personName(random);
      const bloodType = random.weighted(BLOOD_TYPE_WEIGHTS);
      const createdAt = new Date(now - random.int(5, 700) * DAY_MS - random.int(0, 86_399) * 1000);
      const approved = random.chance(0.88);
      const available = approved && random.chance(0.75);
      const id = uuidFrom(random);
      // Within about 1.5 km of the PIN code's point: a street, not the post office's door.
      const latitude = point.latitude + (random.next() - 0.5) * 0.027;
      const longitude = point.longitude + (random.next() - 0.5) * 0.027;
      const ageYears = random.int(18, 58);
      const user: NewUserRow = {
        id,
        email: `demo.donor.${String(i).padStart(4, '0')}@${DEMO_EMAIL_DOMAIN}`,
        passwordHash: DEMO_PASSWORD_HASH,
        role: 'donor',
        status: approved ? 'approved' : 'pending',
        fullName,
        phone: demoPhone(0, i),
        bloodType,
        gender,
        dateOfBirth: isoDate(now - ageYears * 365.25 * DAY_MS - random.int(0, 364) * DAY_MS),
        city: city.name,
        state: point.state,
        pincode: point.pincode,
        latitude: Math.round(latitude * 1e5) / 1e5,
        longitude: Math.round(longitude * 1e5) / 1e5,
        available,
        language: STATE_LANGUAGE[point.state] ?? 'en',
        createdAt,
        updatedAt: createdAt,
        availabilityConfirmedAt: available
          ? new Date(now - random.int(0, 20) * DAY_MS - random.int(0, 23) * HOUR_MS)
          : null,
        onboardingCompletedAt: approved ? new Date(createdAt.getTime() + 2 * HOUR_MS) : null,
        isDemo: true,
      };
      // Past donations: none for new donors, up to three, at least 100 days apart.
      if (approved && random.chance(0.55)) {
        const count = random.int(1, 3);
        let at = now - random.int(20, 300) * DAY_MS;
        const stateFacilities = facilitiesByState.get(point.state) ?? [];
        for (let d = 0; d < count && at > createdAt.getTime(); d += 1) {
          const facility = stateFacilities.length > 0 ? random.pick(stateFacilities) : null;
          donations.push({
            id: uuidFrom(random),
            donorId: id,
            donatedAt: new Date(at),
            units: 1,
            place: facility?.name ?? `${city.name} blood donation camp`,
            facilityId: facility?.id ?? null,
            verified: random.chance(0.6),
            bloodType,
            createdAt: new Date(at + HOUR_MS),
            isDemo: true,
          });
          user.lastDonationAt ??= new Date(at);
          at -= random.int(100, 240) * DAY_MS;
        }
      }
      users.push(user);
    }
  }

  // Requests: every state and union territory with a point in the reference data, every status.
  const requests: NewBloodRequestRow[] = [];
  const history: (typeof bloodRequestHistory.$inferInsert)[] = [];
  const matches: (typeof bloodRequestMatches.$inferInsert)[] = [];
  const approvedByType = groupBy(
    users.filter((user) => user.status === 'approved'),
    (user) => user.bloodType ?? '',
  );
  const statuses = BLOOD_REQUEST_STATUSES;
  let requestNumber = 0;
  for (const state of INDIAN_STATES) {
    const points = pointsByState.get(state.name) ?? [];
    const facilities = facilitiesByState.get(state.name) ?? [];
    if (points.length === 0 && facilities.length === 0) continue;
    const count = DEMO_REQUESTS_PER_STATE + Math.min(3, Math.floor(facilities.length / 40));
    for (let r = 0; r < count; r += 1) {
      requestNumber += 1;
      // Each state cycles through the statuses from a different one, so all appear everywhere.
      const status = statuses[(requestNumber * 3 + r) % statuses.length]!;
      const facility =
        facilities.length > 0 && (points.length === 0 || random.chance(0.7))
          ? random.pick(facilities)
          : null;
      const point = facility ? null : random.pick(points);
      const hospitalName = facility?.name ?? `Government District Hospital, ${point!.district}`;
      const bloodType = random.weighted(BLOOD_TYPE_WEIGHTS);
      const urgency = random.chance(0.3) ? 'critical' : 'urgent';
      const open = status === 'pending' || status === 'verified' || status === 'in_progress';
      const ageMs =
        status === 'unconfirmed'
          ? random.int(2, 40) * 60_000
          : open
            ? random.int(1, 30) * HOUR_MS
            : random.int(2, 45) * DAY_MS;
      const createdAt = now - ageMs;
      const expiresAt =
        status === 'unconfirmed'
          ? createdAt + HOUR_MS
          : open
            ? now + random.int(12, 60) * HOUR_MS
            : createdAt + 72 * HOUR_MS;
      const patient = personName(random);
      const contact = personName(random);
      const id = uuidFrom(random);
      const path = STATUS_PATHS[status];
      const stepMs = Math.max(60_000, Math.floor((Math.min(now, expiresAt) - createdAt) / 4));
      const verifiedStep = path.findIndex(([s]) => s === 'verified');
      requests.push({
        id,
        trackingCode: trackingCodeFrom(random),
        status,
        urgency,
        bloodType,
        unitsNeeded: random.int(1, 4),
        patientName: patient.fullName,
        hospitalName,
        hospitalNameKey: hospitalNameKey(hospitalName),
        facilityId: facility?.id ?? null,
        city: facility?.city ?? facility?.district ?? point?.district ?? state.name,
        state: state.name,
        address: facility?.address ?? null,
        pincode: facility?.pincode ?? point?.pincode ?? null,
        latitude: facility?.latitude ?? point!.latitude,
        longitude: facility?.longitude ?? point!.longitude,
        locationSource: facility ? 'facility' : 'pincode',
        contactName: contact.fullName,
        contactPhone: demoPhone(1, requestNumber),
        contactEmail: null,
        requiredBy: new Date(createdAt + random.int(6, 48) * HOUR_MS),
        expiresAt: new Date(expiresAt),
        createdByRole: 'guest',
        language: 'en',
        verifiedAt: verifiedStep >= 0 ? new Date(createdAt + verifiedStep * stepMs) : null,
        fulfilledAt: status === 'fulfilled' ? new Date(createdAt + 3 * stepMs) : null,
        createdAt: new Date(createdAt),
        updatedAt: new Date(createdAt + (path.length - 1) * stepMs),
        isDemo: true,
      });
      path.forEach(([step, byRole], index) => {
        history.push({
          id: uuidFrom(random),
          requestId: id,
          status: step,
          notes: null,
          by: null,
          byRole,
          at: new Date(createdAt + index * stepMs),
        });
      });
      // A donor on the way, or one who gave: demo donors only, never a real one.
      if (status === 'in_progress' || status === 'fulfilled') {
        const donors = approvedByType.get(bloodType) ?? [];
        if (donors.length > 0) {
          const donor = random.pick(donors);
          const notifiedAt = new Date(createdAt + stepMs);
          const respondedAt = new Date(createdAt + stepMs + 20 * 60_000);
          let donationId: string | null = null;
          let donatedAt: Date | null = null;
          if (status === 'fulfilled') {
            donationId = uuidFrom(random);
            donatedAt = new Date(createdAt + 3 * stepMs);
            donations.push({
              id: donationId,
              donorId: donor.id!,
              donatedAt,
              units: 1,
              place: hospitalName,
              facilityId: facility?.id ?? null,
              requestId: id,
              verified: true,
              bloodType,
              createdAt: donatedAt,
              isDemo: true,
            });
            if (!donor.lastDonationAt || donor.lastDonationAt < donatedAt) {
              donor.lastDonationAt = donatedAt;
            }
          }
          matches.push({
            id: uuidFrom(random),
            requestId: id,
            donorId: donor.id!,
            distanceKm: null,
            exactType: true,
            round: 1,
            notifiedAt,
            response: 'accepted',
            respondedAt,
            donationId,
            donatedAt,
          });
        }
      }
    }
  }

  // Stock: the first centres with a point of each state, every group, fresh within the day.
  const stock: (typeof bloodStock.$inferInsert)[] = [];
  for (const state of INDIAN_STATES) {
    const centres = (facilitiesByState.get(state.name) ?? []).slice(
      0,
      DEMO_STOCK_CENTRES_PER_STATE,
    );
    for (const centre of centres) {
      const components: readonly BloodComponent[] =
        centre.components === false
          ? ['whole_blood']
          : BLOOD_COMPONENTS.filter((c) => c !== 'cryo');
      const updatedAt = new Date(now - random.int(30, 20 * 60) * 60_000);
      for (const [bloodType, weight] of BLOOD_TYPE_WEIGHTS) {
        for (const component of components) {
          const units = random.chance(0.15) ? 0 : random.int(0, Math.ceil(weight / 2));
          stock.push({
            facilityId: centre.id,
            bloodType,
            component,
            units,
            expiringUnits: units > 0 ? random.int(0, Math.floor(units / 3)) : 0,
            updatedAt,
            updatedBy: null,
            isDemo: true,
          });
        }
      }
    }
  }

  return { users, donations, requests, history, matches, stock };
}
