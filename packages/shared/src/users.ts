import type { Role } from './constants';

/** The parts of a user the display-name and guard rules read (product spec section 3). */
export type UserLike = {
  role?: Role | string;
  status?: string | null;
  isApproved?: boolean | null;
  verification?: { isVerified?: boolean | null } | null;
  onboardingCompleted?: boolean | null;
  questionnaireCompleted?: boolean | null;
  documents?: unknown[] | null;
  email?: string | null;
  name?: string | null;
  fullName?: string | null;
  displayName?: string | null;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  phoneNumber?: string | null;
  profile?: {
    name?: string | null;
    fullName?: string | null;
    displayName?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    phoneNumber?: string | null;
  } | null;
};

const filled = (value: string | null | undefined): value is string =>
  !!value && value.trim() !== '';

/** Header / local user: name, then firstName + lastName, then the e-mail's local part, then "User". */
export function headerDisplayName(user: UserLike | null | undefined): string {
  if (!user) return 'User';
  if (filled(user.name)) return user.name.trim();
  const full = [user.firstName, user.lastName].filter(filled).join(' ').trim();
  if (full) return full;
  const local = user.email?.split('@')[0];
  if (filled(local)) return local;
  return 'User';
}

/**
 * Donor-facing display: the first non-empty name that is not the e-mail's local part, else
 * "Donor • " and the phone's last 4 digits, else "User".
 */
export function donorDisplayName(user: UserLike | null | undefined): string {
  if (!user) return 'User';
  const local = user.email?.split('@')[0]?.trim().toLowerCase();
  const candidates = [
    user.name,
    user.fullName,
    user.displayName,
    user.username,
    [user.firstName, user.lastName].filter(filled).join(' '),
    user.profile?.name,
    user.profile?.fullName,
    user.profile?.displayName,
    [user.profile?.firstName, user.profile?.lastName].filter(filled).join(' '),
  ];
  for (const candidate of candidates) {
    if (filled(candidate) && candidate.trim().toLowerCase() !== local) return candidate.trim();
  }
  const phone = [user.phoneNumber, user.phone, user.profile?.phoneNumber].find(filled);
  const digits = phone?.replace(/\D/g, '') ?? '';
  if (digits.length >= 4) return `Donor • ${digits.slice(-4)}`;
  return 'User';
}

/** A donor is approved when isApproved, or status approved/active, or verification.isVerified. */
export function isDonorApproved(user: UserLike): boolean {
  const status = user.status ?? 'pending';
  return (
    user.isApproved === true ||
    status === 'approved' ||
    status === 'active' ||
    user.verification?.isVerified === true
  );
}

/** Onboarding counts as completed when onboardingCompleted, or documents present, or questionnaireCompleted. */
export function isOnboardingCompleted(user: UserLike): boolean {
  return (
    user.onboardingCompleted === true ||
    (user.documents?.length ?? 0) > 0 ||
    user.questionnaireCompleted === true
  );
}

export function roleHome(role: string | null | undefined): string {
  switch (role) {
    case 'admin':
      return '/admin';
    case 'donor':
      return '/dashboard';
    case 'hospital':
      return '/hospital/dashboard';
    default:
      return '/';
  }
}
