/**
 * Indian mobile numbers: 10 digits starting 6–9 (TRAI numbering plan), accepted with or without
 * +91, 91 or a leading 0, with spaces, dashes, dots or brackets; stored in E.164 (+91XXXXXXXXXX).
 */
const INDIAN_MOBILE = /^[6-9]\d{9}$/;

export function normalizeIndianPhone(input: string): string | null {
  const digits = input.trim().replace(/[\s().-]/g, '');
  let local: string;
  if (/^\+91\d{10}$/.test(digits)) local = digits.slice(3);
  else if (/^91\d{10}$/.test(digits)) local = digits.slice(2);
  else if (/^0\d{10}$/.test(digits)) local = digits.slice(1);
  else local = digits;
  return INDIAN_MOBILE.test(local) ? `+91${local}` : null;
}

/** "+91 ••••• ••321": enough for a person to recognise their own number, useless to anyone else. */
export function maskPhone(e164: string): string {
  return `${e164.slice(0, 3)} ••••• ••${e164.slice(-3)}`;
}
