import type { Facility } from '@bdms/shared';
import { intlLocale } from '../../../lib/intl';

/** Intl formatters are costly to make (a list of 20 distances made 20): one per language and kind. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(language: string, kind: 'km1' | 'km0' | 'count'): Intl.NumberFormat {
  const key = `${language} ${kind}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      intlLocale(language),
      kind === 'count'
        ? {}
        : {
            style: 'unit',
            unit: 'kilometer',
            unitDisplay: 'short',
            maximumFractionDigits: kind === 'km1' ? 1 : 0,
          },
    );
    numberFormats.set(key, format);
  }
  return format;
}

/** "2.4 km" (one decimal under 10 km, whole kilometres beyond), in the user's language. */
export function formatDistance(km: number, language: string): string {
  return numberFormat(language, km < 10 ? 'km1' : 'km0').format(km);
}

export function formatCount(value: number, language: string): string {
  return numberFormat(language, 'count').format(value);
}

/**
 * A place name as people write it: the source has some in capitals ("SOUTH ANDAMAN"), which read
 * as shouting and are hard to scan; mixed-case names are kept as published.
 */
export function displayName(value: string): string {
  if (value !== value.toUpperCase() || !/[A-Z]/.test(value)) return value;
  return value
    .toLowerCase()
    .replace(/(^|[\s(/-])(\p{L})/gu, (_, before: string, letter: string) => {
      return before + letter.toUpperCase();
    });
}

/** "Secunderabad, Hyderabad, Telangana 500003": the place line, without repeated names. */
export function placeLine(
  facility: Pick<Facility, 'city' | 'district' | 'state' | 'pincode'>,
): string {
  // "Ranga Reddy" and "RANGAREDDY" are one place.
  const key = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const parts: string[] = [];
  for (const part of [facility.city, facility.district, facility.state]) {
    if (part && !parts.some((seen) => key(seen) === key(part))) parts.push(displayName(part));
  }
  const line = parts.join(', ');
  return facility.pincode ? `${line} ${facility.pincode}` : line;
}

/** The published address on one line (the source breaks lines inside it). */
export function addressLine(address: string | null): string | null {
  if (!address) return null;
  const line = address
    .split(/\r?\n/)
    .map((part) => part.trim().replace(/[,\s]+$/, ''))
    .filter(Boolean)
    .join(', ');
  return line || null;
}

/**
 * Google Maps directions to the facility: its coordinates when known, else its address and place
 * (https://developers.google.com/maps/documentation/urls/get-started#directions-action).
 */
export function directionsUrl(
  facility: Pick<
    Facility,
    'name' | 'address' | 'city' | 'district' | 'state' | 'pincode' | 'latitude' | 'longitude'
  >,
): string {
  const destination =
    facility.latitude !== null && facility.longitude !== null
      ? `${facility.latitude},${facility.longitude}`
      : [facility.name, addressLine(facility.address), placeLine(facility)]
          .filter(Boolean)
          .join(', ');
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

/** The e-mail addresses in the free-text e-mail column. */
export function emailAddresses(value: string | null): string[] {
  if (!value) return [];
  const found = value.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? [];
  return [...new Set(found.map((address) => address.replace(/\.+$/, '')))];
}

/** A safe http(s) link for the website column ("www.example.org" gets https://), else null. */
export function websiteHref(value: string | null): string | null {
  if (!value) return null;
  const text = value.trim().split(/[\s,]+/)[0] ?? '';
  if (!text || !/[a-z0-9-]\.[a-z]{2,}/i.test(text)) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
