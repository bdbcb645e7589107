import { apiErrorBodySchema } from '@bdms/shared';

/** Declares the error envelope for the given statuses in a route's `response` schema. */
export function errorResponses<S extends number>(
  ...statuses: S[]
): Record<S, typeof apiErrorBodySchema> {
  return Object.fromEntries(
    statuses.map((status) => [status, apiErrorBodySchema.describe(`Error envelope (${status})`)]),
  ) as Record<S, typeof apiErrorBodySchema>;
}
