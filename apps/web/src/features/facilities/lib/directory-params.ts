import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  placeNameSchema,
  type BloodComponent,
  type BloodType,
  type Facility,
  type FacilityFilters,
} from '@bdms/shared';

/**
 * The directory's state in the address (`/blood-banks?state=Telangana&components=true&page=2`):
 * a search can be shared or bookmarked, and Back undoes a change. The browser's location is
 * never put there (it would be shared with the link); a PIN code is. "Has O- packed red cells
 * now" is `blood=O-` (and `component=…` for another component than packed red cells).
 */

/** Radius choices for "near", in km; the server accepts 1–200. */
export const RADIUS_CHOICES = [10, 25, 50, 100] as const;
export type RadiusKm = (typeof RADIUS_CHOICES)[number];
export const DEFAULT_RADIUS_KM: RadiusKm = 25;
/** The search needs this many characters (facilitySearchQuerySchema). */
export const SEARCH_MIN_LENGTH = 2;
/** The component the stock filter means unless the address says another. */
export const DEFAULT_STOCK_COMPONENT: BloodComponent = 'prbc';

const PIN_PATTERN = /^[1-9]\d{5}$/;
const FLAG_KEYS = ['components', 'apheresis', 'open24x7'] as const;
type FlagKey = (typeof FLAG_KEYS)[number];
const TEXT_KEYS = ['state', 'district', 'category'] as const;
type TextKey = (typeof TEXT_KEYS)[number];

export interface DirectoryParams {
  /** The search box's text as in the address (may be shorter than SEARCH_MIN_LENGTH). */
  q: string;
  state?: string;
  district?: string;
  category?: string;
  components: boolean;
  apheresis: boolean;
  open24x7: boolean;
  page: number;
  /** "Near PIN code": a valid PIN code, else absent. */
  pin?: string;
  /** "Near a place" (#15): a town, locality or district name, when there is no PIN code. */
  place?: string;
  radius: RadiusKm;
  /** "Has this blood group in stock now" (issue #17): the group, else absent. */
  blood?: BloodType;
  /** The component of the stock filter (packed red cells unless said). */
  component: BloodComponent;
}

export type DirectoryChange = Partial<Omit<DirectoryParams, 'page'>> & { page?: number };

function positiveInt(value: string | null): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : 1;
}

function isRadius(value: number): value is RadiusKm {
  return (RADIUS_CHOICES as readonly number[]).includes(value);
}

/** A place name the server would accept, else undefined. */
function placeName(value: string | undefined): string | undefined {
  const parsed = placeNameSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Reads the address leniently: anything invalid is as if it were absent. */
export function parseDirectoryParams(params: URLSearchParams): DirectoryParams {
  const text = (key: string) => {
    const value = params.get(key)?.trim();
    return value ? value.slice(0, 100) : undefined;
  };
  const pin = text('pin');
  const radius = Number(params.get('radius'));
  const state = text('state');
  return {
    q: params.get('q')?.trim().slice(0, 100) ?? '',
    state,
    // A district only means something inside its state.
    district: state ? text('district') : undefined,
    category: text('category'),
    components: params.get('components') === 'true',
    apheresis: params.get('apheresis') === 'true',
    open24x7: params.get('open24x7') === 'true',
    page: positiveInt(params.get('page')),
    pin: pin && PIN_PATTERN.test(pin) ? pin : undefined,
    place: pin && PIN_PATTERN.test(pin) ? undefined : placeName(text('place')),
    radius: isRadius(radius) ? radius : DEFAULT_RADIUS_KM,
    blood: BLOOD_TYPES.find((type) => type === params.get('blood')),
    component:
      BLOOD_COMPONENTS.find((value) => value === params.get('component')) ??
      DEFAULT_STOCK_COMPONENT,
  };
}

/** The address's query string for a state; defaults are left out. */
export function toSearchParams(state: DirectoryParams): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const key of TEXT_KEYS) {
    const value = state[key];
    if (value && (key !== 'district' || state.state)) params.set(key, value);
  }
  for (const key of FLAG_KEYS) if (state[key]) params.set(key, 'true');
  if (state.pin) params.set('pin', state.pin);
  else if (state.place) params.set('place', state.place);
  if (state.radius !== DEFAULT_RADIUS_KM) params.set('radius', String(state.radius));
  if (state.blood) {
    params.set('blood', state.blood);
    if (state.component !== DEFAULT_STOCK_COMPONENT) params.set('component', state.component);
  }
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/**
 * A change applied to the current state: a new state clears the district; a new search, PIN
 * code or place clears the other two (one way of finding at a time); any change
 * but the page's goes back to page 1.
 */
export function applyDirectoryChange(
  current: DirectoryParams,
  change: DirectoryChange,
): DirectoryParams {
  const next: DirectoryParams = { ...current, ...change };
  if ('state' in change && change.state !== current.state && !('district' in change)) {
    next.district = undefined;
  }
  if (change.q) {
    next.pin = undefined;
    next.place = undefined;
  }
  if (change.pin) {
    next.q = '';
    next.place = undefined;
  }
  if (change.place) {
    next.q = '';
    next.pin = undefined;
  }
  if (!('page' in change)) next.page = 1;
  return next;
}

/**
 * "Clear filters": no state, district, category, service or stock filter; the search and PIN
 * stay.
 */
export function withoutFilters(current: DirectoryParams): DirectoryParams {
  return {
    q: current.q,
    components: false,
    apheresis: false,
    open24x7: false,
    page: 1,
    radius: current.radius,
    pin: current.pin,
    place: current.place,
    component: DEFAULT_STOCK_COMPONENT,
  };
}

/** The filters as the API takes them. */
export function toFacilityFilters(state: DirectoryParams): FacilityFilters {
  const filters: FacilityFilters = {};
  for (const key of TEXT_KEYS) {
    const value = state[key];
    if (value) filters[key] = value;
  }
  for (const key of FLAG_KEYS) if (state[key]) filters[key as FlagKey] = true;
  return filters;
}

/** How many filters narrow the list (the search text and the PIN code are not filters). */
export function countActiveFilters(state: DirectoryParams): number {
  return (
    TEXT_KEYS.filter((key: TextKey) => Boolean(state[key])).length +
    FLAG_KEYS.filter((key) => state[key]).length +
    (state.blood ? 1 : 0)
  );
}

/**
 * Whether a facility passes the directory's filters, for the stock view: the availability search
 * takes no filters, so its centres are narrowed here (names compared as the server does,
 * whatever the case).
 */
export function matchesFilters(
  facility: Pick<
    Facility,
    'state' | 'district' | 'category' | 'components' | 'apheresis' | 'is24x7'
  >,
  filters: FacilityFilters,
): boolean {
  const same = (value: string | null, wanted: string | undefined) =>
    wanted === undefined || value?.toLowerCase() === wanted.toLowerCase();
  return (
    same(facility.state, filters.state) &&
    same(facility.district, filters.district) &&
    same(facility.category, filters.category) &&
    (!filters.components || facility.components === true) &&
    (!filters.apheresis || facility.apheresis === true) &&
    (!filters.open24x7 || facility.is24x7)
  );
}

/**
 * What the page shows: centres holding a blood group now (near a point), the list near a point,
 * search results, or the directory's pages.
 */
export type DirectoryMode = 'stock' | 'nearby' | 'search' | 'directory';

/** `canFilterStock`: the inventoryManagement flag; without it a `blood` in the address is ignored. */
export function directoryMode(
  state: DirectoryParams,
  hasLocation: boolean,
  canFilterStock = false,
): DirectoryMode {
  if (canFilterStock && state.blood) return 'stock';
  if (state.pin || state.place || hasLocation) return 'nearby';
  if (state.q.length >= SEARCH_MIN_LENGTH) return 'search';
  return 'directory';
}
