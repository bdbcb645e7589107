import { describe, expect, it } from 'vitest';
import { boundingBox, haversineKm, INDIA_BOUNDS, isInBox, roundKm } from './geo';

const HYDERABAD = { latitude: 17.385, longitude: 78.4867 };
const SECUNDERABAD = { latitude: 17.4399, longitude: 78.4983 };
const DELHI = { latitude: 28.6139, longitude: 77.209 };
const MUMBAI = { latitude: 19.076, longitude: 72.8777 };
const CHENNAI = { latitude: 13.0827, longitude: 80.2707 };

describe('haversineKm', () => {
  it('is about 6 km from Hyderabad to Secunderabad', () => {
    const km = haversineKm(HYDERABAD, SECUNDERABAD);
    expect(km).toBeGreaterThan(6);
    expect(km).toBeLessThan(7);
  });

  it('matches known city distances', () => {
    expect(haversineKm(DELHI, MUMBAI)).toBeCloseTo(1153, -1);
    expect(haversineKm(MUMBAI, CHENNAI)).toBeCloseTo(1030, -1);
    expect(haversineKm(HYDERABAD, HYDERABAD)).toBe(0);
  });

  it('is symmetric', () => {
    expect(haversineKm(DELHI, CHENNAI)).toBeCloseTo(haversineKm(CHENNAI, DELHI), 9);
  });

  it('gives 111.2 km per degree of latitude', () => {
    expect(
      haversineKm({ latitude: 10, longitude: 77 }, { latitude: 11, longitude: 77 }),
    ).toBeCloseTo(111.19, 1);
  });
});

describe('boundingBox', () => {
  it('widens longitude by 1/cos(latitude)', () => {
    const box = boundingBox(HYDERABAD, 25);
    const latHalf = (box.maxLat - box.minLat) / 2;
    const lngHalf = (box.maxLng - box.minLng) / 2;
    expect(latHalf).toBeCloseTo(25 / 111.195, 4);
    expect(lngHalf / latHalf).toBeCloseTo(1 / Math.cos((17.385 * Math.PI) / 180), 2);
  });

  it('contains every point of the circle, and its corners are outside the circle', () => {
    const radius = 50;
    const box = boundingBox(DELHI, radius);
    for (let bearing = 0; bearing < 360; bearing += 5) {
      const rad = (bearing * Math.PI) / 180;
      // A point about `radius` km away, nudged inward by 0.1 %.
      const dLat = ((radius * 0.999) / 111.195) * Math.cos(rad);
      const dLng =
        ((radius * 0.999) / (111.195 * Math.cos(((DELHI.latitude + dLat) * Math.PI) / 180))) *
        Math.sin(rad);
      const point = { latitude: DELHI.latitude + dLat, longitude: DELHI.longitude + dLng };
      if (haversineKm(DELHI, point) <= radius) expect(isInBox(point, box)).toBe(true);
    }
    expect(haversineKm(DELHI, { latitude: box.maxLat, longitude: box.maxLng })).toBeGreaterThan(
      radius,
    );
  });

  it('spans all longitudes near a pole', () => {
    expect(boundingBox({ latitude: 89.9, longitude: 10 }, 50)).toMatchObject({
      minLng: -180,
      maxLng: 180,
      maxLat: 90,
    });
  });
});

describe('helpers', () => {
  it('knows India’s box and rounds to 0.1 km', () => {
    expect(isInBox(HYDERABAD, INDIA_BOUNDS)).toBe(true);
    expect(isInBox({ latitude: 40.27, longitude: 84.9 }, INDIA_BOUNDS)).toBe(false);
    expect(roundKm(5.06)).toBe(5.1);
  });
});
