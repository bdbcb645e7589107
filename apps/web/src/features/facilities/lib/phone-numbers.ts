/**
 * The directory's phone and mobile columns are free text, as published: several numbers per cell
 * ("0261 2368040, 0261 2368041"), abbreviations of the previous number ("0361-2475550/51/52",
 * "0161-5094538, 39, 40", "0413 2212874 ;2211686"), ranges ("0240 2489001 - 10"), extensions
 * ("Extn. 1728,1729", "ext 109/110"), labels ("07184 250725(Blood Bank)", "PMO-9414257218") and
 * the odd broken value ("9.19E+11", "0982716xxxx"). This turns a cell into numbers a phone can
 * call, each with the text to show.
 *
 * Rules:
 * - Numbers are split at `,` `;` `/` `|` and line breaks outside brackets, and where one
 *   complete number ends and another begins.
 * - A number is complete at its expected length: 11 digits with the trunk 0 ("0240 2489001",
 *   "094170-07288"), 12 with the country code ("+91-9599813133", "91 98480 12345"), 10 for a
 *   mobile (6–9 first) or a landline written without its 0. Anything else (too short, too long,
 *   letters in it) is shown as text, never as a link: no broken `tel:`.
 * - A short run of digits right after a number replaces that number's last digits ("/51" after
 *   "0361-2475550" is "0361-2475551"), and is shown expanded.
 * - Extensions, ranges and labels stay in the visible text of their number; only the number is
 *   dialled.
 */
export interface PhoneNumber {
  /** What to show: the number as published, with its extension, range or label. */
  text: string;
  /** The `tel:` address's number (digits, a leading + when written); null when not callable. */
  tel: string | null;
}

interface Segment {
  text: string;
  /** The separator before it as published (",", "/", …); empty for the first. */
  separator: string;
}

interface NumberMatch {
  /** Offsets in the segment of the number as written (its + or bracket too) and its last digit. */
  start: number;
  end: number;
  digits: string;
  hasPlus: boolean;
}

const SEPARATORS = new Set([',', ';', '/', '|', '\n', '\r']);
const EXTENSION = /\b(ex|ext|extn|exte|extension)\b|\bext[.:-]/i;
/**
 * A run of digits and what sits inside a written number: spaces, hyphens, a bracketed area code
 * ("(03512) 221087"), a leading +.
 */
const RUN = /\+?(?:\(\d+\)[ \t-]*)?\d(?:[\d \t-]*\d)?/g;

/** The cell cut at its separators, except inside brackets ("(Extn. 1728,1729)" stays whole). */
function splitSegments(cell: string): Segment[] {
  const segments: Segment[] = [];
  let depth = 0;
  let current = '';
  let separator = '';
  for (const char of cell) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && SEPARATORS.has(char)) {
      segments.push({ text: current, separator });
      current = '';
      separator = char;
      continue;
    }
    current += char;
  }
  segments.push({ text: current, separator });
  return segments.filter((segment) => /\d/.test(segment.text));
}

/**
 * How many digits a number starting with `digits` has; `null` when unknown (a foreign number
 * after a +). `firstGroup` is the first block of digits as written ("91" alone is a country code,
 * "9121234567" is a mobile).
 */
function expectedLength(digits: string, firstGroup: string, hasPlus: boolean): number | null {
  if (hasPlus) return digits.startsWith('91') ? 12 : null;
  if (digits.startsWith('0091')) return 14;
  if (digits.startsWith('00')) return 12;
  if (digits.startsWith('0')) return 11;
  if (firstGroup === '91' || (digits.startsWith('91') && firstGroup.length === 12)) return 12;
  return 10;
}

/** The number to dial: digits, with + for a country code, and the trunk 0 an Indian landline needs. */
function toTel(digits: string, hasPlus: boolean): string {
  if (hasPlus) return `+${digits}`;
  if (digits.startsWith('0091')) return `+${digits.slice(2)}`;
  // "001985-232213": a doubled trunk 0, not an international call.
  if (digits.startsWith('00')) return digits.slice(1);
  // A 10-digit number starting 1–5 is a landline (area code + number) written without its 0.
  if (/^[1-5]/.test(digits) && digits.length === 10) return `0${digits}`;
  return digits;
}

/** The complete numbers in a segment: each run of digits cut where a number is complete. */
function findNumbers(text: string): { numbers: NumberMatch[]; runs: NumberMatch[] } {
  const numbers: NumberMatch[] = [];
  const runs: NumberMatch[] = [];
  for (const run of text.matchAll(RUN)) {
    const runStart = run.index;
    const hasPlus = run[0].startsWith('+');
    const groups = [...run[0].matchAll(/\d+/g)].map((group) => ({
      digits: group[0],
      start: runStart + group.index,
      end: runStart + group.index + group[0].length,
    }));
    runs.push({
      start: runStart,
      end: groups.at(-1)!.end,
      digits: groups.map((group) => group.digits).join(''),
      hasPlus,
    });
    let index = 0;
    while (index < groups.length) {
      const first = groups[index]!;
      const plus = hasPlus && index === 0;
      let digits = '';
      let last = index;
      let expected: number | null = null;
      for (; last < groups.length; last++) {
        digits += groups[last]!.digits;
        expected = expectedLength(digits, first.digits, plus);
        if (expected !== null && digits.length >= expected) break;
      }
      const isLast = last >= groups.length;
      const end = groups[Math.min(last, groups.length - 1)]!.end;
      const complete =
        expected === null
          ? isLast && digits.length >= 8 && digits.length <= 15
          : digits.length === expected;
      if (complete) {
        numbers.push({ start: index === 0 ? runStart : first.start, end, digits, hasPlus: plus });
        index = last + 1;
      } else {
        // Not a number from here ("2701" of an extension, a range's "10"): try the next block.
        index += 1;
      }
    }
  }
  return { numbers, runs };
}

/** The visible text of a piece: single spaces, no separator left at either end. */
function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:./|-]+/, '')
    .replace(/[\s,;./|-]+$/, '');
}

/**
 * Where the text of one number ends and the next begins: before the next number and the label
 * written against it ("PMO-9414257218"), but after a bracket or digit that closes the previous.
 */
function cutBefore(text: string, start: number, floor: number): number {
  let cut = start;
  while (cut > floor && /[A-Za-z.:#\s-]/.test(text[cut - 1]!)) cut -= 1;
  return cut;
}

/** Replaces the last digits of `text` (a written number) with `tail`, keeping its layout. */
function replaceTail(text: string, tail: string): string {
  const chars = [...text];
  let remaining = tail.length;
  for (let index = chars.length - 1; index >= 0 && remaining > 0; index--) {
    if (/\d/.test(chars[index]!)) {
      remaining -= 1;
      chars[index] = tail[remaining]!;
    }
  }
  return chars.join('');
}

function joinText(previous: string, segment: Segment, text: string): string {
  const separator = segment.separator === ',' || segment.separator === ';' ? ', ' : '/';
  return `${previous}${/[\n\r|]/.test(segment.separator) ? ' ' : separator}${text}`;
}

/** One cell's numbers, in order. */
function parseCell(cell: string): PhoneNumber[] {
  const result: PhoneNumber[] = [];
  /** The last callable number, the base of abbreviations ("…550/51/52"). */
  let base: { written: string; digits: string; hasPlus: boolean } | null = null;
  /** The last number ended with an extension or a range: what follows belongs to it. */
  let inSuffix = false;

  for (const segment of splitSegments(cell)) {
    const text = segment.text;
    const { numbers, runs } = findNumbers(text);
    const firstRun = runs[0];
    const before = firstRun ? text.slice(0, firstRun.start) : text;
    const isExtension = EXTENSION.test(before);

    if (numbers.length > 0 && !isExtension) {
      let from = 0;
      numbers.forEach((number, index) => {
        const next = numbers[index + 1];
        const to = next ? cutBefore(text, next.start, number.end) : text.length;
        result.push({
          text: tidy(text.slice(from, to)),
          tel: toTel(number.digits, number.hasPlus),
        });
        from = to;
      });
      const lastNumber = numbers.at(-1)!;
      base = {
        written: text.slice(lastNumber.start, lastNumber.end),
        digits: lastNumber.digits,
        hasPlus: lastNumber.hasPlus,
      };
      inSuffix = runs.some((run) => run.start >= lastNumber.end);
      continue;
    }

    const previous = result.at(-1);
    const isBareFragment =
      firstRun !== undefined && before.trim() === '' && firstRun.digits.length < 10;
    // A fragment with a leading 0 ("022 357022") is a number of its own, too short to call.
    const isAbbreviation =
      isBareFragment &&
      base !== null &&
      !firstRun.digits.startsWith('0') &&
      firstRun.digits.length <= 8 &&
      firstRun.digits.length < base.digits.length;
    if (base && previous && !isExtension && !inSuffix && isAbbreviation) {
      // "…550/51": the fragment replaces the last digits of the number before it.
      const kept: string = base.digits.slice(0, base.digits.length - firstRun.digits.length);
      const expanded: string = kept + firstRun.digits;
      const written = replaceTail(base.written, firstRun.digits);
      result.push({
        text: tidy(written + text.slice(firstRun.end)),
        tel: toTel(expanded, base.hasPlus),
      });
      base = { written, digits: expanded, hasPlus: base.hasPlus };
      inSuffix = runs.length > 1;
      continue;
    }

    if (previous?.tel && (isExtension || (inSuffix && isBareFragment))) {
      // "Extn: 401", or "/110" after "ext 109": part of the number before.
      previous.text = joinText(previous.text, segment, tidy(text));
      inSuffix = true;
      continue;
    }

    if (previous && previous.tel === null && !base) {
      // "917,723,430,709,…" (a number a spreadsheet mangled): one piece of text, as published.
      previous.text = joinText(previous.text, segment, tidy(text));
    } else {
      result.push({ text: tidy(text), tel: null });
    }
    base = null;
    inSuffix = false;
  }
  return result.filter((number) => number.text !== '');
}

/**
 * The numbers of one or more free-text cells (a facility's phone and mobile columns), each
 * number once: a number written in both columns is listed where it first appears.
 */
export function splitPhoneNumbers(...cells: (string | null | undefined)[]): PhoneNumber[] {
  const seen = new Set<string>();
  const numbers: PhoneNumber[] = [];
  for (const cell of cells) {
    if (!cell) continue;
    for (const number of parseCell(cell)) {
      const key = number.tel ?? `text:${number.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      numbers.push(number);
    }
  }
  return numbers;
}

/** The `href` of a callable number. */
export function telHref(number: PhoneNumber): string | null {
  return number.tel ? `tel:${number.tel}` : null;
}
