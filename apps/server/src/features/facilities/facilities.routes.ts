import {
  facilityDirectoryQuerySchema,
  facilityFacetsSchema,
  facilityIdParamsSchema,
  facilityNearbyQuerySchema,
  facilityPageSchema,
  facilityNearbyResultSchema,
  facilityResultSchema,
  MAX_NEARBY_RADIUS_KM,
  placeSearchQuerySchema,
  placeSearchResultSchema,
  facilitySearchQuerySchema,
  facilitySearchResultSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCachedPublicly } from '../../lib/http-cache';
import { errorResponses } from '../../lib/route-schemas';
import type { FacilitiesService } from './facilities.service';

/** The emergency form's hospital picker searches as the user types: generous, per address. */
export const FACILITY_RATE_LIMITS = {
  search: { max: 120, timeWindow: '1 minute' },
  read: { max: 240, timeWindow: '1 minute' },
} as const;
/** The data changes only when a new file is deployed. */
export const FACILITY_CACHE_SECONDS = 300;

const DATA_NOTE =
  'Data: the Government of India’s blood bank directory (data.gov.in, GODL-India; 2018 snapshot) — ' +
  'contacts may be out of date, so call before going. Cached publicly for 5 minutes with a weak ETag ' +
  '(`If-None-Match` → 304).';

const FILTERS_NOTE =
  '`state`, `district`, `city` and `category` (Government, Private, Charity) match whole values, ' +
  'case-insensitively. Extension: `components`, `apheresis` and `open24x7` take `true` or `false` ' +
  '(`true`: licensed for component separation / has apheresis / open 24×7; `false`: not known to be; ' +
  'any other value is 400).';

// The 200 schemas, shared by the route definitions and the cached bodies they encode.
const SEARCH_REPLY = successEnvelope(facilitySearchResultSchema);
const DIRECTORY_REPLY = successEnvelope(facilityPageSchema);
const NEARBY_REPLY = successEnvelope(facilityNearbyResultSchema);
const FACETS_REPLY = successEnvelope(facilityFacetsSchema);
const FACILITY_REPLY = successEnvelope(facilityResultSchema);
const PLACES_REPLY = successEnvelope(placeSearchResultSchema);

const PLACES_NOTE =
  'PIN code and place points come from India Post’s office directory, checked against GeoNames’ ' +
  'postal codes (CC BY 4.0, geonames.org) and the blood banks that state the PIN code ' +
  '(apps/server/data/README.md). Each has a `confidence`: `high` (independent sources agree), ' +
  '`medium` (one source alone) or `low` (the sources disagree; the point may be tens of km off).';

export interface FacilitiesRoutesOptions {
  facilities: FacilitiesService;
}

export const facilitiesRoutes: FastifyPluginAsyncZod<FacilitiesRoutesOptions> = async (
  app,
  { facilities },
) => {
  app.get(
    '/api/v1/public/facilities/search',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.search, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'Search blood banks by name and place (misspellings tolerated)',
        description:
          '`q` (2–100 characters) is split into words; a facility is a candidate when any word is similar to a ' +
          'word of its name, city, district or state (PostgreSQL pg_trgm word similarity ≥ 0.6, GIN index), and ' +
          'ranked by the mean similarity of all the words (so "Gandhi hospital hyderbad" finds Gandhi Hospital, ' +
          'Secunderabad, Hyderabad district). `score` is 0–1. Where pg_trgm is not installed the server falls back ' +
          `to substring matching (ILIKE). Extension: the directory's filters apply too. ${FILTERS_NOTE} ${DATA_NOTE} ` +
          `Rate limit: ${FACILITY_RATE_LIMITS.search.max} per minute per address.`,
        querystring: facilitySearchQuerySchema,
        response: {
          200: SEARCH_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.search(request.query);
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, SEARCH_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/facilities/directory',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'The blood bank directory, paginated',
        description: `${FILTERS_NOTE} Ordered by state, district, name. ${DATA_NOTE}`,
        querystring: facilityDirectoryQuerySchema,
        response: {
          200: DIRECTORY_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.directory(request.query);
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, DIRECTORY_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/facilities/nearby',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'Blood banks near a point, a PIN code or a place name, nearest first',
        description:
          'Around `lat` and `lng`, or (extensions) around the point of a 6-digit `pincode` or of a `place` ' +
          'name (a town, city locality or district as India Post names it, e.g. "Secunderabad", "Koramangala"; ' +
          'matched case- and punctuation-insensitively, the exact name first, then names it begins, as ' +
          '`GET /api/v1/public/places` lists them); exactly one of the three (400 otherwise). An unknown PIN ' +
          `code or place is 404 \`NOT_FOUND\`. \`radiusKm\` (1–${MAX_NEARBY_RADIUS_KM}, default 25), \`limit\` (1–50, ` +
          'default 10); `distanceKm` is rounded to 0.1 km. Extension: `origin` is the point distances are ' +
          'measured from, with the PIN code’s district and state, the `place` matched, its `confidence` (null ' +
          'for `lat`/`lng`) and `approximate` (true when the confidence is `low`: screens say "near PIN ' +
          '500003, approximate"). Around a PIN code or place the radius widens with the confidence, rather than ' +
          'miss the nearest blood bank: `medium` adds 5 km, `low` doubles it (at least 20 km more), never ' +
          `beyond ${MAX_NEARBY_RADIUS_KM} km; \`origin.requestedRadiusKm\` is the radius asked and \`origin.radiusKm\` the one ` +
          `searched. ${PLACES_NOTE} The directory's filters apply. ${FILTERS_NOTE} A latitude/longitude ` +
          'bounding box on the (latitude, longitude) index finds candidates; the haversine distance cuts them ' +
          `to the circle. Facilities without usable coordinates never appear. ${DATA_NOTE}`,
        querystring: facilityNearbyQuerySchema,
        response: {
          200: NEARBY_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.nearby(request.query);
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, NEARBY_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/places',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.search, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'Place names (towns, city localities, districts) with their point',
        description:
          'Extension. Place names whose comparison form (lower case, punctuation and accents dropped) starts ' +
          'with `q`’s (2–80 characters), best first: the exact name, then names it begins as a whole word, ' +
          'then other prefixes; surer points, post offices before districts and shorter names first. `limit` ' +
          '1–20 (default 8). Names are India Post’s head and sub post offices (towns and city localities, ' +
          'with their PIN code) and districts (no PIN code, `low` confidence: a district spans tens of km); ' +
          'villages (branch offices) are not listed, their PIN code finds them. Feed a name to ' +
          `\`GET /api/v1/public/facilities/nearby?place=\`. ${PLACES_NOTE} Cached publicly for 5 minutes. ` +
          `Rate limit: ${FACILITY_RATE_LIMITS.search.max} per minute per address.`,
        querystring: placeSearchQuerySchema,
        response: {
          200: PLACES_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.places(request.query);
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, PLACES_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/facilities/facets',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'What the directory’s filters can offer, with counts',
        description:
          'Extension. `total` facilities and `withLocation` (usable coordinates: the ones nearby and the map ' +
          'can show); `states` in alphabetical order, each with its `districts` and their counts (a facility ' +
          'without a district counts in its state only); `categories`; how many are licensed for components, ' +
          'have apheresis and are open 24×7. Each count equals the directory’s `total` for that filter. ' +
          `Computed once per server start. ${DATA_NOTE}`,
        response: {
          200: FACETS_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.facets();
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, FACETS_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/facilities/:id',
    {
      config: { rateLimit: FACILITY_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['facilities'],
        summary: 'One blood bank',
        description: `\`id\` is \`bb-<n>\`; unknown ids are 404. ${DATA_NOTE}`,
        params: facilityIdParamsSchema,
        response: {
          200: FACILITY_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await facilities.cached.get(request.params.id);
      sendCachedPublicly(request, reply, entry, FACILITY_CACHE_SECONDS, FACILITY_REPLY);
      return reply;
    },
  );
};
