import { z } from 'zod';
import type { Role } from './constants';

/**
 * Feature flags and their defaults (product spec section 6, "Feature flags"). What each one
 * governs is API.md's "Feature flags" section; a flag never removes a route or weakens a check.
 */
export const FEATURE_FLAG_DEFAULTS = {
  donorRegistration: true,
  homePageRedesign: true,
  privacyProtection: true,
  locationDetection: true,
  pwaSupport: true,
  bloodRequests: false,
  emergencyServices: false,
  bloodBankDirectory: false,
  hospitalDashboard: false,
  advancedMatching: false,
  phoneVerification: false,
  documentUpload: false,
  whatsappIntegration: false,
  smsNotifications: false,
  emailNotifications: false,
  donorDashboard: false,
  donationHistory: false,
  certificateGeneration: false,
  referralSystem: false,
  analyticsReporting: false,
  adminPanel: false,
  hospitalRegistration: false,
  inventoryManagement: false,
  debugMode: false,
  mockData: false,
} as const satisfies Record<string, boolean>;

export type FeatureFlag = keyof typeof FEATURE_FLAG_DEFAULTS;
export type FeatureFlags = Record<FeatureFlag, boolean>;
export const FEATURE_FLAG_NAMES = Object.keys(FEATURE_FLAG_DEFAULTS) as FeatureFlag[];

export function isFeatureFlag(name: string): name is FeatureFlag {
  return Object.hasOwn(FEATURE_FLAG_DEFAULTS, name);
}

export const featureFlagsSchema = z.object(
  Object.fromEntries(FEATURE_FLAG_NAMES.map((name) => [name, z.boolean()])) as Record<
    FeatureFlag,
    z.ZodBoolean
  >,
);

/** Body of `PUT /api/v1/admin/flags`: any subset of known flags. */
export const updateFeatureFlagsSchema = featureFlagsSchema.partial().strict();
export type UpdateFeatureFlags = z.infer<typeof updateFeatureFlagsSchema>;

/**
 * Flags that are fixed on (issue #21). `privacyProtection`: a donor's phone and e-mail are never
 * shown to strangers whatever a switch says — there is no safe meaning for "off", so switching it
 * off is refused. `homePageRedesign`: the home page has one design (the emergency-first one the
 * flag named); there is no older page to go back to, so it is refused too rather than pretending.
 * Both stay in the spec's table and in `GET /config` (always true).
 */
export const FIXED_ON_FLAGS = [
  'privacyProtection',
  'homePageRedesign',
] as const satisfies readonly FeatureFlag[];
export type FixedOnFlag = (typeof FIXED_ON_FLAGS)[number];

export function isFixedOnFlag(flag: string): flag is FixedOnFlag {
  return (FIXED_ON_FLAGS as readonly string[]).includes(flag);
}

export type FlagOverrideParse =
  | { ok: true; overrides: Partial<FeatureFlags> }
  | { ok: false; unknown: string[]; fixedOn?: FixedOnFlag[] };

/**
 * Parses `FEATURE_FLAGS` ("bloodRequests,emergencyServices,-pwaSupport"): a bare name turns a
 * flag on, a leading "-" turns it off. Unknown names are reported, not ignored, so a typo in
 * the environment stops the start instead of silently doing nothing.
 */
export function parseFeatureFlagOverrides(value: string | undefined): FlagOverrideParse {
  const overrides: Partial<FeatureFlags> = {};
  const unknown: string[] = [];
  const fixedOn: FixedOnFlag[] = [];
  for (const raw of (value ?? '').split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const enabled = !item.startsWith('-');
    const name = item.replace(/^[-+]/, '');
    if (!isFeatureFlag(name)) unknown.push(name);
    else if (!enabled && isFixedOnFlag(name)) fixedOn.push(name);
    else overrides[name] = enabled;
  }
  if (fixedOn.length) return { ok: false, unknown, fixedOn };
  return unknown.length ? { ok: false, unknown } : { ok: true, overrides };
}

/** Role-specific shortcuts (product spec section 6, "Feature visibility"). */
export function isFeatureVisible(
  flag: FeatureFlag,
  role: Role | null | undefined,
  flags: FeatureFlags,
): boolean {
  if (!flags[flag]) return false;
  if (flag === 'adminPanel') return role === 'admin';
  if (flag === 'hospitalDashboard') return role === 'hospital';
  return true;
}

/** Reply of `GET /api/v1/config`. */
export const publicConfigSchema = z.object({
  appName: z.string(),
  version: z.string(),
  flags: featureFlagsSchema,
  supportEmail: z.string(),
  vapidPublicKey: z.string().nullable(),
  /**
   * True while the database holds demo records (the `mockData` flag seeded them): the web app
   * shows a "Demo data" banner on every page until `npm run demo:remove`.
   */
  demoData: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
