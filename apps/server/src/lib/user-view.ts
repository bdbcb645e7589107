import { BLOOD_TYPES, GENDERS, type BloodType, type Gender, type User } from '@bdms/shared';
import type { UserRow } from '../db/schema';

const isBloodType = (value: string | null): value is BloodType =>
  value !== null && (BLOOD_TYPES as readonly string[]).includes(value);
const isGender = (value: string | null): value is Gender =>
  value !== null && (GENDERS as readonly string[]).includes(value);

/**
 * The user object of API.md, built from a users row. It is only ever sent to the user themself
 * or to an administrator, since it carries the e-mail address and phone number.
 *
 * Fields whose data later features own are sent as the data really is today: no documents,
 * questionnaire or donations exist yet, so `[]`, `false`, `null` and `0`.
 */
export function toUserView(row: UserRow): User {
  const isApproved = row.status === 'approved';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    isApproved,
    verification: { isVerified: isApproved },
    onboardingCompleted: false,
    questionnaireCompleted: false,
    documents: [],
    name: row.fullName,
    fullName: row.fullName,
    phone: row.phone,
    phoneNumber: row.phone,
    bloodType: isBloodType(row.bloodType) ? row.bloodType : null,
    gender: isGender(row.gender) ? row.gender : null,
    dateOfBirth: row.dateOfBirth,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    available: row.available,
    lastDonationAt: null,
    nextEligibleAt: null,
    totalDonations: 0,
    language: row.language,
    createdAt: row.createdAt.toISOString(),
    rejectionReason: null,
    suspensionReason: null,
    hospital: null,
  };
}
