import { describe, expect, it } from 'vitest';
import { facilityNearbyQuerySchema, placeNameSchema, widenedRadiusKm } from './facilities';

describe('widenedRadiusKm', () => {
  it('keeps the radius around a high point, adds 5 km around a medium one, doubles around a low one', () => {
    expect(widenedRadiusKm(10, 'high')).toBe(10);
    expect(widenedRadiusKm(10, null)).toBe(10);
    expect(widenedRadiusKm(10, 'medium')).toBe(15);
    // At least 20 km more, or twice as far.
    expect(widenedRadiusKm(10, 'low')).toBe(30);
    expect(widenedRadiusKm(50, 'low')).toBe(100);
    expect(widenedRadiusKm(150, 'low')).toBe(200);
    expect(widenedRadiusKm(198, 'medium')).toBe(200);
  });
});

describe('the nearby query', () => {
  it('takes exactly one of a point, a PIN code and a place name', () => {
    expect(facilityNearbyQuerySchema.parse({ place: ' Koramangala ' })).toMatchObject({
      place: 'Koramangala',
      radiusKm: 25,
    });
    expect(facilityNearbyQuerySchema.safeParse({ place: 'Abids', pincode: '500001' }).success).toBe(
      false,
    );
    expect(facilityNearbyQuerySchema.safeParse({ place: 'Abids', lat: 17, lng: 78 }).success).toBe(
      false,
    );
    expect(placeNameSchema.safeParse('500001').success).toBe(false);
    expect(placeNameSchema.safeParse('x').success).toBe(false);
  });
});
