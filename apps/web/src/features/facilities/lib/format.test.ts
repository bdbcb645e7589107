import { describe, expect, it } from 'vitest';
import { FACILITY_DATA } from '@bdms/shared';
import en from '../../../i18n/locales/en/common.json';
import es from '../../../i18n/locales/es/common.json';
import hi from '../../../i18n/locales/hi/common.json';
import {
  addressLine,
  directionsUrl,
  displayName,
  emailAddresses,
  formatDistance,
  placeLine,
  websiteHref,
} from './format';

const COMMON_TEXTS = { en, es, hi };

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

  it("names the directory's month in each language as Intl would (a text: no Intl on first render)", () => {
    const [year, month] = FACILITY_DATA.asOf.split('-').map(Number) as [number, number];
    const date = new Date(Date.UTC(year, month - 1, 1));
    for (const [language, texts] of Object.entries(COMMON_TEXTS)) {
      const expected = new Intl.DateTimeFormat(language, {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(date);
      expect(texts.facilityDataDate, language).toBe(expected);
    }
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
