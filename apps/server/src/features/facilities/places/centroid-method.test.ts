import { haversineKm } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import {
  buildPincodePoints,
  choosePoint,
  parsePoint,
  repairedPoints,
  type GeonamesPostalCode,
  type Office,
  type OfficeType,
  type Point,
} from './centroid-method';
import { buildPlaces, placeKey } from './place-names';

/** A point `km` north (and `eastKm` east) of `from`, near enough for a crafted sample. */
const offset = (from: Point, km: number, eastKm = 0): Point => ({
  latitude: from.latitude + km / 111.2,
  longitude: from.longitude + eastKm / (111.2 * Math.cos((from.latitude * Math.PI) / 180)),
});
const ABIDS = { latitude: 17.39314, longitude: 78.47628 };
const office = (pincode: string, name: string, type: OfficeType, point: Point | null): Office => ({
  pincode,
  name,
  type,
  district: 'Hyderabad',
  state: 'Telangana',
  point,
});
const geonames = (pincode: string, point: Point): GeonamesPostalCode => ({
  pincode,
  place: 'x',
  state: 'Telangana',
  district: 'Hyderabad',
  point,
  accuracy: 1,
});

describe('parsePoint and repairedPoints', () => {
  it('keeps points in India, swaps exchanged ones back and reads "21.9161 N"', () => {
    expect(parsePoint('17.39', '78.47')).toEqual({ latitude: 17.39, longitude: 78.47 });
    expect(parsePoint(78.47, 17.39)).toEqual({ latitude: 17.39, longitude: 78.47 });
    expect(parsePoint('21.9161 N', '84.0464 E')).toEqual({ latitude: 21.9161, longitude: 84.0464 });
    for (const [lat, lng] of [
      ['0', '0'],
      ['31.4398200-', '150.5361740'],
      [null, '78'],
      ['NaN', '78'],
    ]) {
      expect(parsePoint(lat, lng)).toBeNull();
    }
  });

  it("undoes decimal degrees read as degrees and minutes (Secunderabad's head office)", () => {
    // India Post's 500003 head office: 17.73758333, 78.83125, 49 km from Secunderabad.
    const [repaired] = repairedPoints({ latitude: 17.73758333, longitude: 78.83125 });
    expect(repaired!.latitude).toBeCloseTo(17.44255, 4);
    expect(repaired!.longitude).toBeCloseTo(78.49875, 4);
  });
});

describe('choosePoint', () => {
  it('drops a branch office 40 km off and keeps the others', () => {
    const offices = [
      office('500001', 'Head', 'HO', ABIDS),
      office('500001', 'Sub', 'SO', offset(ABIDS, 1)),
      office('500001', 'Branch near', 'BO', offset(ABIDS, 0, 2)),
      office('500001', 'Branch far', 'BO', offset(ABIDS, 40)),
    ];
    const choice = choosePoint(offices, {})!;
    expect(choice.members.map((member) => member.office.name)).toEqual([
      'Head',
      'Sub',
      'Branch near',
    ]);
    expect(haversineKm(choice.point, ABIDS)).toBeLessThan(1);
    expect(choice.source).toBe('india-post');
  });

  it('prefers the head office to a crowd of branch offices', () => {
    // Six villages 6 km east of the town outnumber it; the PIN's point is still the town's.
    const villages = [0, 1, 2, 3, 4, 5].map((i) =>
      office('500001', `Village ${i}`, 'BO', offset(ABIDS, i * 0.3, 6)),
    );
    const choice = choosePoint([office('500001', 'Head', 'HO', ABIDS), ...villages], {})!;
    expect(choice.point).toEqual(ABIDS);
    // The old method (a plain median) would have put it among the villages.
    expect(choice.members).toHaveLength(7);
  });

  it('takes GeoNames when India Post disagrees with it and with the neighbouring PINs', () => {
    const wrong = offset(ABIDS, -30, -40);
    const choice = choosePoint([office('500001', 'Sub', 'SO', wrong)], {
      geonames: offset(ABIDS, 1),
      neighbours: offset(ABIDS, -2),
    })!;
    expect(choice.source).toBe('geonames');
    expect(choice.point).toEqual(offset(ABIDS, 1));
    expect(choice.members).toEqual([]);
    expect(choice.confidence).toBe('medium');
  });

  it('keeps India Post when GeoNames agrees, and says high', () => {
    const choice = choosePoint(
      [office('500001', 'Head', 'HO', ABIDS), office('500001', 'Sub', 'SO', offset(ABIDS, 1))],
      { geonames: offset(ABIDS, 3) },
    )!;
    expect(choice.source).toBe('india-post');
    expect(choice.confidence).toBe('high');
  });

  it('repairs a minutes slip when the references say so, and not otherwise', () => {
    const head = { latitude: 17.73758333, longitude: 78.83125 };
    const alone = choosePoint([office('500003', 'Secunderabad', 'HO', head)], {})!;
    expect(alone.point).toEqual(head);
    expect(alone.confidence).toBe('low');
    const checked = choosePoint([office('500003', 'Secunderabad', 'HO', head)], {
      geonames: { latitude: 17.3862, longitude: 78.462 },
      neighbours: offset(ABIDS, 4),
    })!;
    expect(checked.source).toBe('india-post-repaired');
    expect(checked.point.latitude).toBeCloseTo(17.44255, 4);
    expect(checked.point.longitude).toBeCloseTo(78.49875, 4);
  });

  it('lets two blood banks at one place outweigh directories that do not confirm each other', () => {
    const banks = offset(ABIDS, 20);
    const choice = choosePoint([office('500001', 'Sub', 'SO', ABIDS)], {
      geonames: offset(ABIDS, -30),
      banks,
      bankCount: 2,
      banksConsistent: true,
    })!;
    expect(choice).toMatchObject({ source: 'blood-banks', point: banks, confidence: 'medium' });
  });

  it('never lets a single blood bank move a point India Post and GeoNames agree on', () => {
    const choice = choosePoint([office('500001', 'Sub', 'SO', ABIDS)], {
      geonames: offset(ABIDS, 2),
      neighbours: offset(ABIDS, 30),
      banks: offset(ABIDS, 25),
      bankCount: 1,
    })!;
    expect(choice.source).toBe('india-post');
    expect(choice.point).toEqual(ABIDS);
  });
});

describe('buildPincodePoints and buildPlaces', () => {
  const input = {
    offices: [
      office('500001', 'Hyderabad', 'HO', ABIDS),
      office('500001', 'Far Branch', 'BO', offset(ABIDS, 40)),
      office('500002', 'Two', 'SO', offset(ABIDS, 2)),
      office('500004', 'Four', 'SO', offset(ABIDS, 3)),
      office('500005', 'Five', 'SO', offset(ABIDS, -3)),
      // 500003's only office: the degrees-and-minutes slip, 49 km away.
      office('500003', 'Secunderabad', 'HO', { latitude: 17.73758333, longitude: 78.83125 }),
      office('500006', 'No point', 'SO', null),
    ],
    geonames: [
      geonames('500003', { latitude: 17.3862, longitude: 78.462 }),
      geonames('500099', offset(ABIDS, 5)),
    ],
  };

  it('places every PIN from its offices, GeoNames or its neighbours, the same way every time', () => {
    const built = buildPincodePoints(input);
    expect(built).toEqual(buildPincodePoints(input));
    const byPin = new Map(built.pincodes.map((p) => [p.pincode, p]));
    expect([...byPin.keys()]).toEqual([
      '500001',
      '500002',
      '500003',
      '500004',
      '500005',
      '500006',
      '500099',
    ]);
    expect(byPin.get('500001')).toMatchObject({ ...ABIDS, offices: 1, source: 'india-post' });
    expect(byPin.get('500003')).toMatchObject({
      latitude: 17.44255,
      longitude: 78.49875,
      source: 'india-post-repaired',
    });
    expect(byPin.get('500006')).toMatchObject({ source: 'neighbouring-pins', confidence: 'low' });
    expect(byPin.get('500099')).toMatchObject({ source: 'geonames' });
    // The far branch office was dropped: it has no point of its own.
    expect(built.offices.find((o) => o.name === 'Far Branch')!.placed).toBeNull();
  });

  it('lists head and sub offices by name, and districts, with their confidence', () => {
    const places = buildPlaces(buildPincodePoints(input));
    expect(places.map((p) => [p.name, p.kind, p.pincode])).toEqual([
      ['Five', 'office', '500005'],
      ['Four', 'office', '500004'],
      ['Hyderabad', 'district', null],
      ['Hyderabad', 'office', '500001'],
      ['No point', 'office', '500006'],
      ['Secunderabad', 'office', '500003'],
      ['Two', 'office', '500002'],
    ]);
    // An office without a point of its own stands at its PIN's point, one level less sure.
    expect(places.find((p) => p.name === 'No point')!.confidence).toBe('low');
    expect(places.find((p) => p.kind === 'district')!.confidence).toBe('low');
  });

  it('compares names without case, accents or punctuation', () => {
    expect(placeKey('  Secunderabad H.O ')).toBe('secunderabad h o');
    expect(placeKey('KORAMANGALA-Vi  Bk')).toBe('koramangala vi bk');
    expect(placeKey('Bhīmavaram')).toBe('bhimavaram');
  });
});
