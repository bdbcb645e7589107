import { eq } from 'drizzle-orm';
import type { App } from '../app';
import type { Db } from '../db/client';
import { facilities, hospitals, pincodes, users, type HospitalRow } from '../db/schema';
import { bearer, loginAs, seedUser } from './auth-helpers';

let sequence = 0;

/** A directory blood bank at a point (the loader's columns, no CSV needed). */
export async function seedFacility(
  db: Db,
  options: { id?: string; name?: string; state?: string; latitude: number; longitude: number },
): Promise<string> {
  sequence += 1;
  const id = options.id ?? `bb-${90000 + sequence}`;
  const name = options.name ?? `Test Blood Centre ${sequence}`;
  await db.insert(facilities).values({
    id,
    srNo: Number(id.slice(3)),
    name,
    state: options.state ?? 'Delhi',
    district: 'New Delhi',
    city: 'New Delhi',
    phone: '011-23456789',
    latitude: options.latitude,
    longitude: options.longitude,
    search: `${name} new delhi delhi`.toLowerCase(),
  });
  return id;
}

export async function seedPincode(db: Db, pincode: string, latitude: number, longitude: number) {
  await db.insert(pincodes).values({
    pincode,
    district: 'New Delhi',
    state: 'Delhi',
    latitude,
    longitude,
    confidence: 'high',
  });
}

export interface CentreAccount {
  hospital: HospitalRow;
  userId: string;
  headers: Record<string, string>;
}

/** A hospital organisation linked to `facilityId` with one signed-in account. */
export async function seedCentreAccount(
  app: App,
  db: Db,
  facilityId: string | null,
  options: { verificationStatus?: HospitalRow['verificationStatus']; disabled?: boolean } = {},
): Promise<CentreAccount> {
  const [hospital] = await db
    .insert(hospitals)
    .values({
      name: 'Centre organisation',
      facilityId,
      city: 'New Delhi',
      state: 'Delhi',
      verificationStatus: options.verificationStatus ?? 'verified',
    })
    .returning();
  const seeded = await seedUser(db, { role: 'hospital' });
  await db.update(users).set({ hospitalId: hospital!.id }).where(eq(users.id, seeded.row.id));
  const { tokens } = await loginAs(app, seeded);
  if (options.disabled)
    await db
      .update(hospitals)
      .set({ disabledAt: new Date() })
      .where(eq(hospitals.id, hospital!.id));
  return { hospital: hospital!, userId: seeded.row.id, headers: bearer(tokens.accessToken) };
}
