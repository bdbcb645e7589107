import { describe, expect, it } from 'vitest';
import {
  addressLine,
  directionsUrl,
  displayName,
  emailAddresses,
  formatDistance,
  formatMonth,
  placeLine,
  websiteHref,
} from './format';

const PLACE = {
  name: 'Gandhi Hospital Blood Bank',
  address: '1st Floor, A block,\nMusheerabad, ',
  city: 'Secunderabad',
  district: 'HYDERABAD',
  state: 'Telangana',
  pincode: '500003',
  latitude: 17.42323,
  longitude: 78.504138,
};

describe('facility formatting', () => {
  it('writes distances with one decimal under 10 km', () => {
    expect(formatDistance(2.44, 'en')).toBe('2.4 km');
    expect(formatDistance(12.4, 'en')).toBe('12 km');
    expect(formatDistance(2.44, 'es')).toBe('2,4 km');
  });

  it("writes the directory's month in the user's language", () => {
    expect(formatMonth('2018-04', 'en')).toBe('April 2018');
    expect(formatMonth('2018-04', 'es')).toBe('abril de 2018');
    expect(formatMonth('2018-04', 'hi')).toBe('अप्रैल 2018');
  });

  it('writes place names in capitals as names, once each', () => {
    expect(displayName('SOUTH ANDAMAN')).toBe('South Andaman');
    expect(displayName('Andaman And Nicobar Islands')).toBe('Andaman And Nicobar Islands');
    expect(placeLine(PLACE)).toBe('Secunderabad, Hyderabad, Telangana 500003');
    expect(
      placeLine({ city: 'Ranga Reddy', district: 'RANGAREDDY', state: 'Telangana', pincode: null }),
    ).toBe('Ranga Reddy, Telangana');
  });

  it('puts a multi-line address on one line', () => {
    expect(addressLine(PLACE.address)).toBe('1st Floor, A block, Musheerabad');
    expect(addressLine('  ')).toBeNull();
  });

  it('sends directions to the coordinates, or to the address when there are none', () => {
    expect(directionsUrl(PLACE)).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=17.42323%2C78.504138',
    );
    const url = new URL(directionsUrl({ ...PLACE, latitude: null, longitude: null }));
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('destination')).toBe(
      'Gandhi Hospital Blood Bank, 1st Floor, A block, Musheerabad, Secunderabad, Hyderabad, Telangana 500003',
    );
  });

  it('reads the e-mail and website columns safely', () => {
    expect(emailAddresses('VGHBLOODBANK@gmail.com, supdtvgh@gmail.com')).toEqual([
      'VGHBLOODBANK@gmail.com',
      'supdtvgh@gmail.com',
    ]);
    expect(emailAddresses('indian red cross society')).toEqual([]);
    expect(websiteHref('www.example.org')).toBe('https://www.example.org/');
    expect(websiteHref('http://www.pgimer.edu.in')).toBe('http://www.pgimer.edu.in/');
    expect(websiteHref('javascript:alert(1)')).toBeNull();
    expect(websiteHref('N/A')).toBeNull();
  });
});
