import { describe, expect, it } from 'vitest';
import {
  applyDirectoryChange,
  countActiveFilters,
  directoryMode,
  parseDirectoryParams,
  toFacilityFilters,
  toSearchParams,
  withoutFilters,
} from './directory-params';

const parse = (query: string) => parseDirectoryParams(new URLSearchParams(query));
const roundTrip = (query: string) => toSearchParams(parse(query)).toString();

describe('directory params in the address', () => {
  it('reads every filter, the search, the page, the PIN code and the radius', () => {
    expect(
      parse(
        'q=gandhi&state=Telangana&district=Hyderabad&category=Government&components=true&apheresis=true&open24x7=true&page=3&pin=500001&radius=50',
      ),
    ).toEqual({
      q: 'gandhi',
      state: 'Telangana',
      district: 'Hyderabad',
      category: 'Government',
      components: true,
      apheresis: true,
      open24x7: true,
      page: 3,
      pin: '500001',
      place: undefined,
      radius: 50,
      blood: undefined,
      component: 'prbc',
    });
  });

  it('has defaults for an empty address', () => {
    expect(parse('')).toEqual({
      q: '',
      state: undefined,
      district: undefined,
      category: undefined,
      components: false,
      apheresis: false,
      open24x7: false,
      page: 1,
      pin: undefined,
      place: undefined,
      radius: 25,
      blood: undefined,
      component: 'prbc',
    });
  });

  it('reads and writes the stock filter: a blood group, and a component other than packed red cells', () => {
    expect(parse('pin=500001&blood=O-')).toMatchObject({ blood: 'O-', component: 'prbc' });
    expect(parse('blood=AB%2B&component=ffp')).toMatchObject({ blood: 'AB+', component: 'ffp' });
    // Unknown values are as if absent.
    expect(parse('blood=O&component=blood')).toMatchObject({ blood: undefined, component: 'prbc' });
    expect(roundTrip('pin=500001&blood=O-&component=prbc')).toBe('pin=500001&blood=O-');
    expect(roundTrip('blood=O-&component=platelets')).toBe('blood=O-&component=platelets');
    // A component without a group filters nothing.
    expect(roundTrip('component=platelets')).toBe('');
    expect(countActiveFilters(parse('blood=O-&category=Private'))).toBe(2);
    const cleared = withoutFilters(parse('pin=500001&blood=O-&component=ffp'));
    expect(cleared).toMatchObject({ pin: '500001', component: 'prbc' });
    expect(cleared.blood).toBeUndefined();
  });

  it('shows stock only with the flag on, near a place or not (the page then asks for one)', () => {
    expect(directoryMode(parse('pin=500001&blood=O-'), false, true)).toBe('stock');
    expect(directoryMode(parse('blood=O-'), false, true)).toBe('stock');
    expect(directoryMode(parse('pin=500001&blood=O-'), false, false)).toBe('nearby');
    expect(directoryMode(parse('pin=500001'), false, true)).toBe('nearby');
  });

  it('ignores invalid values instead of failing', () => {
    const params = parse('page=-2&radius=37&pin=012345&components=yes&district=Hyderabad&state=');
    expect(params.page).toBe(1);
    expect(params.radius).toBe(25);
    expect(params.pin).toBeUndefined();
    expect(params.components).toBe(false);
    // A district without its state means nothing.
    expect(params.district).toBeUndefined();
    expect(parse('page=2.5').page).toBe(1);
    expect(parse('pin=50001').pin).toBeUndefined();
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(roundTrip('')).toBe('');
    expect(roundTrip('radius=25&page=1&components=false')).toBe('');
    const full =
      'q=gandhi&state=Telangana&district=Hyderabad&category=Government&components=true&pin=500001&radius=10&page=2';
    expect(parse(roundTrip(full))).toEqual(parse(full));
  });

  it('clears the district when the state changes, and goes back to page 1', () => {
    const current = parse('state=Telangana&district=Hyderabad&page=4');
    const next = applyDirectoryChange(current, { state: 'Kerala' });
    expect(next).toMatchObject({ state: 'Kerala', district: undefined, page: 1 });
    expect(applyDirectoryChange(current, { state: 'Telangana' }).district).toBe('Hyderabad');
    expect(applyDirectoryChange(current, { components: true }).page).toBe(1);
    expect(applyDirectoryChange(current, { page: 5 }).page).toBe(5);
  });

  it('keeps one way of finding at a time: a search clears the PIN code and back', () => {
    const nearPin = parse('pin=500001&components=true');
    expect(applyDirectoryChange(nearPin, { q: 'gandhi' })).toMatchObject({
      q: 'gandhi',
      pin: undefined,
      components: true,
    });
    const searching = parse('q=gandhi&state=Telangana');
    expect(applyDirectoryChange(searching, { pin: '500001' })).toMatchObject({
      q: '',
      pin: '500001',
      state: 'Telangana',
    });
  });

  it('"Clear filters" keeps the search, the PIN code and the radius', () => {
    const params = parse(
      'q=gandhi&state=Telangana&district=Hyderabad&category=Private&apheresis=true&pin=500001&radius=50&page=3',
    );
    expect(countActiveFilters(params)).toBe(4);
    const cleared = withoutFilters(params);
    expect(countActiveFilters(cleared)).toBe(0);
    expect(toSearchParams(cleared).toString()).toBe('q=gandhi&pin=500001&radius=50');
  });

  it('turns the state into API filters, sending only what narrows', () => {
    expect(toFacilityFilters(parse('state=Telangana&open24x7=true&q=x'))).toEqual({
      state: 'Telangana',
      open24x7: true,
    });
    expect(toFacilityFilters(parse(''))).toEqual({});
  });

  it('shows nearby results for a PIN code or a location, else search from 2 characters', () => {
    expect(directoryMode(parse('pin=500001'), false)).toBe('nearby');
    expect(directoryMode(parse(''), true)).toBe('nearby');
    expect(directoryMode(parse('q=ga'), false)).toBe('search');
    expect(directoryMode(parse('q=g'), false)).toBe('directory');
    expect(directoryMode(parse(''), false)).toBe('directory');
  });
});

describe('a place name in the address (#15)', () => {
  it('reads ?place= as "near a place", unless a PIN code is given, and writes it back', () => {
    const params = parse('place=Koramangala&radius=10');
    expect(params).toMatchObject({ place: 'Koramangala', pin: undefined, radius: 10 });
    expect(directoryMode(params, false)).toBe('nearby');
    expect(toSearchParams(params).toString()).toBe('place=Koramangala&radius=10');
    expect(parse('place=Koramangala&pin=500001')).toMatchObject({
      pin: '500001',
      place: undefined,
    });
    expect(parse('place=12').place).toBeUndefined();
  });

  it('keeps one way of finding at a time: a place clears the PIN and the search, and back', () => {
    const near = parse('pin=500001&q=gandhi');
    expect(applyDirectoryChange(near, { place: 'Secunderabad' })).toMatchObject({
      place: 'Secunderabad',
      pin: undefined,
      q: '',
    });
    const atPlace = parse('place=Secunderabad');
    expect(applyDirectoryChange(atPlace, { pin: '500003' })).toMatchObject({
      pin: '500003',
      place: undefined,
    });
    expect(applyDirectoryChange(atPlace, { q: 'gandhi' })).toMatchObject({ place: undefined });
  });
});
