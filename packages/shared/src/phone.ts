/**
 * Indian phone numbers (National Numbering Plan 2003, TRAI/DoT): every number has a 10-digit
 * national significant number (NSN) after +91 or the trunk prefix 0.
 * - Mobiles start with 6–9.
 * - Landlines are an STD code of 2–4 digits (no leading 0 once the trunk 0 is dropped) and a
 *   subscriber number of 6–8 digits, together always 10 digits: 040-2345 6789, 0891-234 5678.
 * Both are stored in E.164 (+91XXXXXXXXXX).
 */
const INDIAN_MOBILE = /^[6-9]\d{9}$/;
const INDIAN_NSN = /^[1-9]\d{9}$/;

/** The 10 digits after +91, 91 or a trunk 0, separators removed; null when not 10 digits. */
function nationalNumber(input: string): string | null {
  const digits = input.trim().replace(/[\s().\-/]/g, '');
  if (/^\+91\d{10}$/.test(digits)) return digits.slice(3);
  if (/^91\d{10}$/.test(digits)) return digits.slice(2);
  if (/^0\d{10}$/.test(digits)) return digits.slice(1);
  return /^\d{10}$/.test(digits) ? digits : null;
}

/**
 * An Indian mobile number in E.164, or null. Donors' own numbers are mobiles only: they receive
 * codes and alerts by SMS.
 */
export function normalizeIndianPhone(input: string): string | null {
  const local = nationalNumber(input);
  return local && INDIAN_MOBILE.test(local) ? `+91${local}` : null;
}

/**
 * A contact number of a hospital or a blood request in E.164, or null: a mobile, or a landline
 * written with its STD code (040-2345 6789, 0891 2345678, +91 40 2345 6789). A landline without
 * its STD code (2345 6789) is refused: it cannot be dialled from another city.
 */
export function normalizeIndianContactPhone(input: string): string | null {
  const local = nationalNumber(input);
  return local && INDIAN_NSN.test(local) ? `+91${local}` : null;
}

/**
 * Two-digit STD codes (the metros), the only ones whose split is certain without the full STD
 * list; other landlines are grouped 5 + 5 like a mobile, which dials the same.
 */
const METRO_STD_CODES = new Set(['11', '20', '22', '33', '40', '44']);

/**
 * An E.164 Indian number as Indians write it: "+91 98765 43210", a metro landline
 * "+91 40 2345 6789". Anything else is returned as given.
 */
export function formatIndianPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const match = /^\+91(\d{10})$/.exec(phone);
  if (!match) return phone;
  const nsn = match[1]!;
  if (METRO_STD_CODES.has(nsn.slice(0, 2))) {
    return `+91 ${nsn.slice(0, 2)} ${nsn.slice(2, 6)} ${nsn.slice(6)}`;
  }
  return `+91 ${nsn.slice(0, 5)} ${nsn.slice(5)}`;
}

/** "+91 ••••• ••321": enough for a person to recognise their own number, useless to anyone else. */
export function maskPhone(e164: string): string {
  return `${e164.slice(0, 3)} ••••• ••${e164.slice(-3)}`;
}
