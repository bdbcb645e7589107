import { z } from 'zod';
import { BLOOD_TYPES, DAY, HOUR, type BloodType } from './constants';
import { compatibleDonorTypes } from './compatibility';
import { facilityNearbyQuerySchema, facilitySchema, nearbyOriginSchema } from './facilities';

/**
 * Blood stock: what a verified blood centre holds, per blood group and component (issue #17).
 *
 * The five components a licensed blood centre issues, with their storage and shelf life as the
 * Drugs and Cosmetics Rules, 1945, Schedule F Part XII-B set them (whole blood and red cells in
 * CPDA-1 35 days / SAGM 42 days at 2–6 °C; platelets 5 days at 20–24 °C with agitation; fresh
 * frozen plasma and cryoprecipitate one year at −30 °C or colder) — also NBTC, "Guidelines for
 * the clinical use of blood components" and the Transfusion Medicine Technical Manual (NBTC 2017).
 */
export const BLOOD_COMPONENTS = ['whole_blood', 'prbc', 'platelets', 'ffp', 'cryo'] as const;
export type BloodComponent = (typeof BLOOD_COMPONENTS)[number];

export const BLOOD_COMPONENT_RULES: Record<
  BloodComponent,
  { shelfLifeDays: number; storage: string }
> = {
  whole_blood: { shelfLifeDays: 35, storage: '2–6 °C (CPDA-1)' },
  prbc: { shelfLifeDays: 42, storage: '2–6 °C (SAGM)' },
  platelets: { shelfLifeDays: 5, storage: '20–24 °C, continuous agitation' },
  ffp: { shelfLifeDays: 365, storage: '≤ −30 °C' },
  cryo: { shelfLifeDays: 365, storage: '≤ −30 °C' },
};
export const BLOOD_COMPONENT_RULES_SOURCE =
  'Drugs and Cosmetics Rules, 1945, Schedule F Part XII-B; NBTC Transfusion Medicine Technical Manual (2017)';

/** Figures older than this are stale: shown as such and never counted as available. */
export const STOCK_STALE_AFTER_MS = 24 * HOUR;
/** A centre whose stock has not been updated for this long is reminded (once per lapse). */
export const STOCK_REMINDER_AFTER_MS = 3 * DAY;
/** "Units expiring soon" means within this many days. */
export const STOCK_EXPIRING_WITHIN_DAYS = 3;
/** No centre holds more of one group and component than this; a bigger figure is a typo. */
export const MAX_STOCK_UNITS = 9999;

export function isStockStale(updatedAt: Date | string, now: number): boolean {
  return now - new Date(updatedAt).getTime() > STOCK_STALE_AFTER_MS;
}

/** The compatibility rule a component follows (the screen names it beside the groups). */
export type CompatibilityRule = 'red_cells' | 'whole_blood' | 'plasma' | 'platelets';

export const COMPONENT_COMPATIBILITY_RULE: Record<BloodComponent, CompatibilityRule> = {
  // Packed red cells carry little plasma: the red-cell (ABO and RhD) table applies.
  prbc: 'red_cells',
  // Whole blood carries the donor's plasma too: ABO-identical only (RhD− may go to RhD+).
  whole_blood: 'whole_blood',
  // Plasma carries antibodies against the A/B antigens the donor lacks: the reverse table.
  ffp: 'plasma',
  cryo: 'plasma',
  // Platelets: ABO plasma-compatible preferred; RhD− recipients get RhD− platelets.
  platelets: 'platelets',
};

const abo = (type: BloodType) => type.slice(0, -1);
const rh = (type: BloodType) => type.slice(-1);

/**
 * Plasma compatibility, recipient ABO → donor ABO: AB plasma (no anti-A, no anti-B) goes to
 * everyone, O plasma only to O. NBTC 2017, "Guidelines for the clinical use of blood
 * components"; WHO, "The clinical use of blood" (2002), table 2.4.
 */
const PLASMA_DONOR_ABO: Record<string, readonly string[]> = {
  O: ['O', 'A', 'B', 'AB'],
  A: ['A', 'AB'],
  B: ['B', 'AB'],
  AB: ['AB'],
};

/**
 * The groups of a component a recipient of `recipient` can be given, the exact group first (the
 * order screens list them), by the component's rule (COMPONENT_COMPATIBILITY_RULE). The blood
 * centre cross-matches before issuing; this only tells a family whom to call.
 */
export function componentDonorTypes(component: BloodComponent, recipient: BloodType): BloodType[] {
  const rule = COMPONENT_COMPATIBILITY_RULE[component];
  let donors: BloodType[];
  // Red cells: the donor-asking order (exact, same ABO, A/B, then O: O− is spared).
  if (rule === 'red_cells') donors = compatibleDonorTypes(recipient);
  else if (rule === 'whole_blood')
    donors = BLOOD_TYPES.filter(
      (donor) => abo(donor) === abo(recipient) && (rh(recipient) === '+' || rh(donor) === '-'),
    );
  else if (rule === 'plasma')
    donors = BLOOD_TYPES.filter((donor) => PLASMA_DONOR_ABO[abo(recipient)]!.includes(abo(donor)));
  else
    donors = BLOOD_TYPES.filter(
      (donor) =>
        PLASMA_DONOR_ABO[abo(recipient)]!.includes(abo(donor)) &&
        (rh(recipient) === '+' || rh(donor) === '-'),
    );
  return [recipient, ...donors.filter((donor) => donor !== recipient)];
}

const unitsSchema = z.number().int().min(0).max(MAX_STOCK_UNITS);

export const stockLineSchema = z
  .object({
    bloodType: z.enum(BLOOD_TYPES),
    component: z.enum(BLOOD_COMPONENTS),
    /** Units on hand. */
    units: unitsSchema,
    /** Of those, units expiring within STOCK_EXPIRING_WITHIN_DAYS days; optional. */
    expiringUnits: unitsSchema.nullable().optional(),
  })
  .refine((line) => (line.expiringUnits ?? 0) <= line.units, {
    path: ['expiringUnits'],
    message: 'Units expiring soon cannot be more than the units on hand.',
  });
export type StockLine = z.infer<typeof stockLineSchema>;

/**
 * A stock update: the lines that changed, or every line (the screen sends all). Lines not sent
 * keep their figures; every line of the centre is confirmed as of now (the whole screen was seen).
 */
export const updateStockSchema = z
  .object({
    lines: z
      .array(stockLineSchema)
      .min(1)
      .max(BLOOD_TYPES.length * 5),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.lines.forEach((line, index) => {
      const key = `${line.bloodType}/${line.component}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index],
          message: `${line.bloodType} ${line.component} is listed twice.`,
        });
      seen.add(key);
    });
  });
export type UpdateStock = z.infer<typeof updateStockSchema>;

export const stockItemSchema = z.object({
  bloodType: z.enum(BLOOD_TYPES),
  component: z.enum(BLOOD_COMPONENTS),
  units: z.number().int(),
  expiringUnits: z.number().int().nullable(),
  /** When the centre last confirmed this figure (ISO 8601). */
  updatedAt: z.string(),
  /** Older than 24 hours: shown as stale, never counted as available. */
  stale: z.boolean(),
});
export type StockItem = z.infer<typeof stockItemSchema>;

export const facilityStockSchema = z.object({
  facilityId: z.string(),
  /** The latest confirmation of any line; null when the centre has never published stock. */
  updatedAt: z.string().nullable(),
  stale: z.boolean(),
  items: z.array(stockItemSchema),
});
export type FacilityStock = z.infer<typeof facilityStockSchema>;

export const stockChangeSchema = z.object({
  bloodType: z.enum(BLOOD_TYPES),
  component: z.enum(BLOOD_COMPONENTS),
  unitsBefore: z.number().int().nullable(),
  units: z.number().int(),
  expiringBefore: z.number().int().nullable(),
  expiringUnits: z.number().int().nullable(),
});
export type StockChange = z.infer<typeof stockChangeSchema>;

export const stockHistoryEntrySchema = z.object({
  id: z.string(),
  /** `updated`: figures changed; `confirmed`: "nothing changed" (the time was refreshed). */
  kind: z.enum(['updated', 'confirmed']),
  at: z.string(),
  /** Who: the account's name (the centre's own staff see it; the public never does). */
  by: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  changes: z.array(stockChangeSchema),
});
export type StockHistoryEntry = z.infer<typeof stockHistoryEntrySchema>;

export const stockHistoryPageSchema = z.object({
  items: z.array(stockHistoryEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type StockHistoryPage = z.infer<typeof stockHistoryPageSchema>;

/** The availability search: "O- PRBC within 25 km of PIN 110001". */
export const stockAvailabilityQuerySchema = facilityNearbyQuerySchema.safeExtend({
  bloodType: z.enum(BLOOD_TYPES),
  component: z.enum(BLOOD_COMPONENTS).default('prbc'),
});
export type StockAvailabilityQuery = z.infer<typeof stockAvailabilityQuerySchema>;

/** A directory facility (the directory's cards show it as they show any) with its stock. */
export const stockCentreSchema = facilitySchema.safeExtend({
  latitude: z.number(),
  longitude: z.number(),
  distanceKm: z.number(),
  /** The groups it holds of the component asked, fresh and non-zero, in the order asked. */
  stock: z.array(
    z.object({
      bloodType: z.enum(BLOOD_TYPES),
      units: z.number().int(),
      expiringUnits: z.number().int().nullable(),
      updatedAt: z.string(),
    }),
  ),
});
export type StockCentre = z.infer<typeof stockCentreSchema>;

export const stockAvailabilitySchema = z.object({
  origin: nearbyOriginSchema,
  bloodType: z.enum(BLOOD_TYPES),
  component: z.enum(BLOOD_COMPONENTS),
  rule: z.enum(['red_cells', 'whole_blood', 'plasma', 'platelets']),
  /** The compatible groups other than the one asked, in the order they are listed. */
  compatibleTypes: z.array(z.enum(BLOOD_TYPES)),
  /** Centres holding the group asked, nearest first. */
  items: z.array(stockCentreSchema),
  /** Centres holding only compatible groups, nearest first. */
  compatible: z.array(stockCentreSchema),
});
export type StockAvailability = z.infer<typeof stockAvailabilitySchema>;

/** Administrators' view: fresh units and the centres holding them, nationally and per state. */
export const stockSummaryQuerySchema = z.object({
  component: z.enum(BLOOD_COMPONENTS).default('prbc'),
});
export type StockSummaryQuery = z.infer<typeof stockSummaryQuerySchema>;

const groupFiguresSchema = z.object({
  bloodType: z.enum(BLOOD_TYPES),
  /** Fresh (≤ 24 h) units on hand. */
  units: z.number().int(),
  /** Centres holding fresh, non-zero units of the group. */
  centres: z.number().int(),
});

const silentCentreSchema = z.object({
  facilityId: z.string(),
  name: z.string(),
  state: z.string(),
  district: z.string().nullable(),
  /** The centre's latest confirmation of any line (ISO 8601). */
  updatedAt: z.string(),
});

export const stockSummarySchema = z.object({
  component: z.enum(BLOOD_COMPONENTS),
  generatedAt: z.string(),
  /** Centres that have published stock at least once. */
  reportingCentres: z.number().int(),
  /** Of those, confirmed within 24 hours. */
  freshCentres: z.number().int(),
  national: z.array(groupFiguresSchema),
  states: z.array(z.object({ state: z.string(), groups: z.array(groupFiguresSchema) })),
  /** Centres not confirmed for 24 hours, the longest silent first. */
  staleCentres: z.array(silentCentreSchema),
  /**
   * Of those, the centres that stopped updating: not confirmed for STOCK_REMINDER_AFTER_MS (3
   * days; they have been reminded), the longest silent first. The screen lists these to chase.
   */
  quietCentres: z.array(silentCentreSchema),
});
export type StockSummary = z.infer<typeof stockSummarySchema>;
