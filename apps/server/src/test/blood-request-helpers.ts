import type { BloodType } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { App } from '../app';
import type { Db } from '../db/client';
import { hospitals, users } from '../db/schema';
import { signIn, type SignedInUser } from './donor-helpers';

const DAY = 86_400_000;
/** Central Hyderabad, where the matching scenarios happen. */
export const HYDERABAD = { latitude: 17.385, longitude: 78.4867 };

/** A point `km` north of Hyderabad (1° of latitude ≈ 111.195 km). */
export function northOfHyderabad(km: number) {
  return { latitude: HYDERABAD.latitude + km / 111.195, longitude: HYDERABAD.longitude };
}

let phoneSequence = 0;
/** A fresh, valid Indian mobile number per call (10 digits, starting 9). */
export function nextPhone(): string {
  phoneSequence += 1;
  return `9${String(300_000_000 + phoneSequence)}`;
}

export function requestBody(overrides: Record<string, unknown> = {}) {
  return {
    bloodType: 'O-',
    unitsNeeded: 2,
    urgency: 'critical',
    patientName: 'Lakshmi Devi',
    hospitalName: 'Gandhi Hospital',
    city: 'Secunderabad',
    state: 'Telangana',
    address: 'Musheerabad, Secunderabad',
    ...HYDERABAD,
    contactName: 'Ravi Kumar',
    contactPhone: nextPhone(),
    contactEmail: 'ravi.family@example.org',
    notes: 'Surgery tomorrow morning',
    ...overrides,
  };
}

export interface DonorOptions {
  bloodType?: BloodType;
  km?: number;
  status?: 'pending' | 'approved' | 'rejected' | 'suspended';
  available?: boolean;
  lastDonationDaysAgo?: number | null;
  gender?: 'male' | 'female' | 'other';
  fullName?: string;
  now?: number;
}

/** An approved, available donor `km` north of Hyderabad, signed in. */
export async function makeDonor(
  app: App,
  db: Db,
  options: DonorOptions = {},
): Promise<SignedInUser> {
  const now = options.now ?? Date.now();
  const donor = await signIn(app, db, {
    status: options.status ?? 'approved',
    gender: options.gender ?? 'male',
    fullName: options.fullName ?? 'Arjun Reddy',
  });
  const [row] = await db
    .update(users)
    .set({
      bloodType: options.bloodType ?? 'O-',
      ...northOfHyderabad(options.km ?? 5),
      available: options.available ?? true,
      availabilityConfirmedAt: new Date(now - DAY),
      lastDonationAt:
        options.lastDonationDaysAgo == null
          ? null
          : new Date(now - options.lastDonationDaysAgo * DAY),
    })
    .where(eq(users.id, donor.row.id))
    .returning();
  return { ...donor, row: row! };
}

/** A hospital organisation and its signed-in account. */
export async function makeHospital(
  app: App,
  db: Db,
  options: { name?: string; city?: string; facilityId?: string | null } = {},
): Promise<SignedInUser & { hospitalId: string }> {
  const [hospital] = await db
    .insert(hospitals)
    .values({
      name: options.name ?? 'Gandhi Hospital',
      city: options.city ?? 'Secunderabad',
      state: 'Telangana',
      facilityId: options.facilityId ?? null,
    })
    .returning();
  const account = await signIn(app, db, { role: 'hospital', fullName: hospital!.name });
  await db.update(users).set({ hospitalId: hospital!.id }).where(eq(users.id, account.row.id));
  return { ...account, hospitalId: hospital!.id };
}
