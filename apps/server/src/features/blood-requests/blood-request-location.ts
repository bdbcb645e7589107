import type { NewBloodRequestRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { BloodRequestsRepository } from './blood-requests.repository';

/**
 * The request's point: the facility's coordinates, else the given point, else the PIN code's
 * centroid, else none (matching then cannot run; the request is still shown to admins).
 */
export async function locate(
  repo: BloodRequestsRepository,
  input: {
    facilityId: string | null;
    latitude: number | null;
    longitude: number | null;
    pincode: string | null;
  },
): Promise<Pick<NewBloodRequestRow, 'latitude' | 'longitude' | 'locationSource'>> {
  if (input.facilityId) {
    const facility = await repo.findFacility(input.facilityId);
    if (!facility) {
      const message = 'There is no facility with this id.';
      throw new AppError('VALIDATION_ERROR', message, [{ path: 'body.facilityId', message }]);
    }
    if (facility.latitude !== null && facility.longitude !== null) {
      return {
        latitude: facility.latitude,
        longitude: facility.longitude,
        locationSource: 'facility',
      };
    }
  }
  if (input.latitude !== null && input.longitude !== null) {
    return { latitude: input.latitude, longitude: input.longitude, locationSource: 'given' };
  }
  if (input.pincode) {
    const centroid = await repo.findPincode(input.pincode);
    if (centroid) {
      return {
        latitude: centroid.latitude,
        longitude: centroid.longitude,
        locationSource: 'pincode',
      };
    }
  }
  return { latitude: null, longitude: null, locationSource: null };
}
