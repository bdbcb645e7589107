import { describe, expect, it } from 'vitest';
import {
  cleanCoordinates,
  cleanPincode,
  cleanText,
  cleanYesNo,
  isRoundTheClock,
  searchText,
  toFacilityRecord,
  toPincodeRecord,
  toPlaceRecord,
} from './facilities.cleaning';

describe('cleanText', () => {
  it.each(['', '  ', 'NA', 'na', 'N/A', 'n/a', '#N/A', ' #n/a '])(
    'treats %j as missing',
    (value) => {
      expect(cleanText(value)).toBeNull();
    },
  );

  it('trims and keeps everything else', () => {
    expect(cleanText('  Gandhi Hospital ')).toBe('Gandhi Hospital');
    expect(cleanText('NAGPUR')).toBe('NAGPUR');
    expect(cleanText(undefined)).toBeNull();
  });
});

describe('cleanCoordinates', () => {
  const ctx = { srNo: 1, state: 'Telangana' };

  it('keeps a point inside India', () => {
    expect(cleanCoordinates('17.4399', '78.4983', ctx)).toEqual({
      latitude: 17.4399,
      longitude: 78.4983,
    });
  });

  it.each([
    ['#N/A', '#N/A'],
    ['17.43', ''],
    ['abc', '78.4'],
    ['40.27', '84.9'], // row 238, Jehanabad: latitude 40.27
    ['23.02', '23.02'], // latitude copied into the longitude (Gujarat rows)
    ['5.9', '78'],
    ['37.1', '78'],
    ['20', '67.9'],
    ['20', '98.1'],
  ])('drops %s, %s', (lat, lng) => {
    expect(cleanCoordinates(lat, lng, ctx)).toEqual({ latitude: null, longitude: null });
  });

  it('drops the shared district-hospital placeholder everywhere', () => {
    expect(
      cleanCoordinates('26.6869797', '79.4703885', { srNo: 151, state: 'Uttar Pradesh' }),
    ).toEqual({
      latitude: null,
      longitude: null,
    });
  });

  it('drops the Patna point outside Bihar and keeps it in Bihar', () => {
    expect(
      cleanCoordinates('25.6351644', '85.0415328', { srNo: 2299, state: 'Telangana' }).latitude,
    ).toBeNull();
    expect(cleanCoordinates('25.6351644', '85.0415328', { srNo: 200, state: 'Bihar' })).toEqual({
      latitude: 25.6351644,
      longitude: 85.0415328,
    });
  });

  it('drops row 638 (Panipat pointing to Patna) whatever its point', () => {
    expect(cleanCoordinates('29.39', '76.97', { srNo: 638, state: 'Haryana' }).latitude).toBeNull();
  });
});

describe('isRoundTheClock', () => {
  it.each([
    '24x7',
    '24X7',
    '24 x 7',
    '24 X 7',
    '24×7',
    '24*7',
    '24/7',
    '24BY 7',
    '24 Hours',
    '24 hours',
    '24 HOURS',
    '24 hrs',
    '24 Hrs',
    '24hrs',
    '24hrs.',
    '24 Hr.',
    '24 hr',
    '24 H',
    '24h',
    '24 hours.',
    '24 hours 365 days',
    '24 hours (9-4.30 Blood Collection)',
    'Round the clock',
  ])('%j is 24×7', (value) => {
    expect(isRoundTheClock(value)).toBe(true);
  });

  it.each([
    '',
    'N/A',
    '10am to 5pm',
    '12x7',
    '16x6',
    '12 Hrs',
    '9 am to 7 pm (Emergency 24 hours)',
    'Currently non functional',
    '9am to 4pm (for all), 24X7( for own Hospital on-call service)',
  ])('%j is not', (value) => {
    expect(isRoundTheClock(value)).toBe(false);
  });
});

describe('cleanYesNo and cleanPincode', () => {
  it('maps YES/NO and leaves everything else unknown', () => {
    expect(cleanYesNo('YES')).toBe(true);
    expect(cleanYesNo(' yes ')).toBe(true);
    expect(cleanYesNo('NO')).toBe(false);
    expect(cleanYesNo('')).toBeNull();
    expect(cleanYesNo('N/A')).toBeNull();
    expect(cleanYesNo('2')).toBeNull();
  });

  it('keeps only 6-digit PIN codes', () => {
    expect(cleanPincode('500003')).toBe('500003');
    expect(cleanPincode(' 744104 ')).toBe('744104');
    for (const bad of ['520 008', '362266,', '16', 'NA', '', '050003', '5000031']) {
      expect(cleanPincode(bad)).toBeNull();
    }
  });
});

describe('records', () => {
  it('turns a directory row into a facility', () => {
    const record = toFacilityRecord({
      'License #': 'TS/28C/45/2001',
      'Date License Obtained': '12.03.2001',
      'Date of Renewal': 'N/A',
      'Sr No': '2292',
      'Blood Bank Name': 'Gandhi Hospital Blood Bank',
      State: 'Telangana',
      District: 'HYDERABAD',
      City: 'Secunderabad',
      Address: '1st Floor, A block,\nMusheerabad, Secunderabad',
      Pincode: '500003',
      'Contact No': '040 27505566',
      Mobile: '9848250147',
      Email: 'bloodbank@example.org',
      Website: '',
      Category: 'Government',
      'Blood Component Available': 'YES',
      Apheresis: '2',
      'Service Time': '24x7',
      Latitude: '17.4243',
      Longitude: '78.5036',
    });
    expect(record).toEqual({
      id: 'bb-2292',
      srNo: 2292,
      name: 'Gandhi Hospital Blood Bank',
      category: 'Government',
      address: '1st Floor, A block,\nMusheerabad, Secunderabad',
      city: 'Secunderabad',
      district: 'HYDERABAD',
      state: 'Telangana',
      pincode: '500003',
      phone: '040 27505566',
      mobile: '9848250147',
      email: 'bloodbank@example.org',
      website: null,
      latitude: 17.4243,
      longitude: 78.5036,
      components: true,
      apheresis: null,
      serviceTime: '24x7',
      is24x7: true,
      licenceNumber: 'TS/28C/45/2001',
      licenceObtained: '12.03.2001',
      licenceRenewed: null,
      search: 'gandhi hospital blood bank secunderabad hyderabad telangana',
    });
  });

  it('skips rows without a serial number, name or state', () => {
    expect(toFacilityRecord({ 'Sr No': 'x', 'Blood Bank Name': 'A', State: 'B' })).toBeNull();
    expect(toFacilityRecord({ 'Sr No': '3', 'Blood Bank Name': 'NA', State: 'B' })).toBeNull();
  });

  it('turns a centroid row into a PIN code point', () => {
    expect(
      toPincodeRecord({
        pincode: '110001',
        district: 'New Delhi',
        state: 'Delhi',
        latitude: '28.61986',
        longitude: '77.21292',
        confidence: 'high',
        source: 'india-post-repaired',
      }),
    ).toEqual({
      pincode: '110001',
      district: 'New Delhi',
      state: 'Delhi',
      latitude: 28.61986,
      longitude: 77.21292,
      confidence: 'high',
      source: 'india-post-repaired',
    });
    // A file without the columns (before #15), or an unknown value: medium, India Post.
    expect(
      toPincodeRecord({ pincode: '110001', latitude: '28.6', longitude: '77.2', confidence: 'x' }),
    ).toMatchObject({ confidence: 'medium', source: 'india-post' });
    expect(toPincodeRecord({ pincode: '11000', latitude: '28', longitude: '77' })).toBeNull();
    expect(toPincodeRecord({ pincode: '110001', latitude: '0', longitude: '0' })).toBeNull();
    // The Army Postal Service's 9xxxxx codes have no fixed place (999999 points at Salem).
    for (const pincode of ['900056', '900099', '999999']) {
      expect(
        toPincodeRecord({ pincode, district: 'Nizamabad', latitude: '11.68', longitude: '77.92' }),
      ).toBeNull();
    }
  });

  it('turns a place row into a place name with its comparison key, and skips unusable ones', () => {
    const row = {
      name: 'Koramangala Vi Bk',
      kind: 'office',
      pincode: '560095',
      district: 'Bengaluru Urban',
      state: 'Karnataka',
      latitude: '12.93845',
      longitude: '77.61915',
      confidence: 'high',
    };
    expect(toPlaceRecord(row, 7)).toEqual({
      id: 7,
      key: 'koramangala vi bk',
      name: 'Koramangala Vi Bk',
      kind: 'office',
      pincode: '560095',
      district: 'Bengaluru Urban',
      state: 'Karnataka',
      latitude: 12.93845,
      longitude: 77.61915,
      confidence: 'high',
    });
    expect(toPlaceRecord({ ...row, kind: 'district', pincode: '' }, 8)).toMatchObject({
      kind: 'district',
      pincode: null,
    });
    for (const bad of [
      { name: '..' },
      { kind: 'village' },
      { latitude: '0', longitude: '0' },
      { pincode: '999999' },
    ]) {
      expect(toPlaceRecord({ ...row, ...bad }, 9)).toBeNull();
    }
  });

  it('builds lower-cased search text without missing parts', () => {
    expect(searchText(['AIIMS  Blood Bank', 'NA', 'New Delhi', 'Delhi'])).toBe(
      'aiims blood bank new delhi delhi',
    );
  });
});
