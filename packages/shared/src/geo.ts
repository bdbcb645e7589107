/**
 * Distances on the Earth for "donors near this hospital". A sphere of the mean Earth radius
 * (IUGG, 6371.0088 km) is within 0.5 % of the ellipsoid, far better than the accuracy of the
 * points we have (PIN code centroids, geocoded addresses).
 */
export const EARTH_RADIUS_KM = 6371.0088;

export interface LatLng {
  latitude: number;
  longitude: number;
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

const toRad = (deg: number) => (deg * Math.PI) / 180;
const toDeg = (rad: number) => (rad * 180) / Math.PI;

/** Great-circle distance in km (haversine, stable for short distances). */
export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = toRad(b.latitude - a.latitude);
  const dLng = toRad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The smallest latitude/longitude box holding every point within `radiusKm` of `center`, for
 * an index range scan before the exact distance. A degree of longitude shrinks with cos(lat),
 * so the longitude half-width is asin(sin(r/R) / cos(lat)) (Matuschek's formula), which is exact
 * for the widest point of the circle; near a pole, or when the circle would cross it, the box
 * spans every longitude. The box is not wrapped across ±180° (India is far from it); the
 * longitudes are clamped to [-180, 180] instead.
 */
export function boundingBox(center: LatLng, radiusKm: number): BoundingBox {
  const angular = radiusKm / EARTH_RADIUS_KM;
  const lat = toRad(center.latitude);
  const minLat = lat - angular;
  const maxLat = lat + angular;
  if (minLat <= -Math.PI / 2 || maxLat >= Math.PI / 2) {
    return {
      minLat: Math.max(-90, toDeg(minLat)),
      maxLat: Math.min(90, toDeg(maxLat)),
      minLng: -180,
      maxLng: 180,
    };
  }
  const dLng = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(lat)));
  return {
    minLat: toDeg(minLat),
    maxLat: toDeg(maxLat),
    minLng: Math.max(-180, center.longitude - toDeg(dLng)),
    maxLng: Math.min(180, center.longitude + toDeg(dLng)),
  };
}

/** India's extent as the facilities data uses it: points outside are data errors. */
export const INDIA_BOUNDS: BoundingBox = { minLat: 6, maxLat: 37, minLng: 68, maxLng: 98 };

export function isInBox(point: LatLng, box: BoundingBox): boolean {
  return (
    point.latitude >= box.minLat &&
    point.latitude <= box.maxLat &&
    point.longitude >= box.minLng &&
    point.longitude <= box.maxLng
  );
}

/** Rounded for display (0.1 km), never more precise than the data. */
export function roundKm(km: number): number {
  return Math.round(km * 10) / 10;
}
