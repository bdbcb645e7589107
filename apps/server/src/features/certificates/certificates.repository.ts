import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { donations, users } from '../../db/schema';

const selection = {
  id: donations.id,
  donorId: donations.donorId,
  donatedAt: donations.donatedAt,
  place: donations.place,
  units: donations.units,
  verified: donations.verified,
  certificateNumber: donations.certificateNumber,
  bloodType: donations.bloodType,
  donorName: users.fullName,
  donorLanguage: users.language,
  donorDeletedAt: users.deletedAt,
};

export function createCertificatesRepository(db: Db) {
  return {
    async findDonation(id: string) {
      const [row] = await db
        .select(selection)
        .from(donations)
        .leftJoin(users, eq(users.id, donations.donorId))
        .where(eq(donations.id, id))
        .limit(1);
      return row;
    },

    async findByCertificateNumber(number: string) {
      const [row] = await db
        .select(selection)
        .from(donations)
        .leftJoin(users, eq(users.id, donations.donorId))
        .where(eq(donations.certificateNumber, number))
        .limit(1);
      return row;
    },
  };
}

export type CertificatesRepository = ReturnType<typeof createCertificatesRepository>;
