import { z } from 'zod';
import { paginated } from './api';

/**
 * Contracts of the public facilities (blood bank) directory (API.md "Public: facilities"). The
 * data is the Government of India's 2018 blood bank directory: contacts may be out of date, so
 * screens show its date and a "verify by phone" notice.
 */

export const FACILITY_CATEGORIES = ['Government', 'Private', 'Charity'] as const;

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

export const facilitySearchQuerySchema = z.object({
  /** Name, city, district or state; spelling mistakes are tolerated. */
  q: z.string().trim().min(2, 'Type at least 2 characters.').max(100),
  state: z.string().trim().min(2).max(80).optional(),
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
  state: z.string().trim().min(2).max(80).optional(),
  district: z.string().trim().min(2).max(80).optional(),
  city: z.string().trim().min(2).max(80).optional(),
  category: z.string().trim().min(2).max(40).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type FacilityDirectoryQuery = z.infer<typeof facilityDirectoryQuerySchema>;
export const facilityPageSchema = paginated(facilitySchema);

export const facilityNearbyQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lng: z.coerce.number().min(-180).max(180),
  radiusKm: z.coerce.number().min(1).max(200).default(25),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export type FacilityNearbyQuery = z.infer<typeof facilityNearbyQuerySchema>;
export const facilityNearbyResultSchema = z.object({
  items: z.array(facilitySchema.extend({ distanceKm: z.number() })),
});
