import { describe, expect, it } from 'vitest';
import { canDonateRedCells, compatibleDonorTypes, RED_CELL_DONORS } from './compatibility';
import { BLOOD_TYPES, type BloodType } from './constants';

// Every donor → recipient pair, written out by hand (1 = compatible) from the standard table:
// rows are donors, columns are recipients, in the order O- O+ A- A+ B- B+ AB- AB+.
const ORDER: BloodType[] = ['O-', 'O+', 'A-', 'A+', 'B-', 'B+', 'AB-', 'AB+'];
const TABLE: Record<BloodType, string> = {
  'O-': '1 1 1 1 1 1 1 1',
  'O+': '0 1 0 1 0 1 0 1',
  'A-': '0 0 1 1 0 0 1 1',
  'A+': '0 0 0 1 0 0 0 1',
  'B-': '0 0 0 0 1 1 1 1',
  'B+': '0 0 0 0 0 1 0 1',
  'AB-': '0 0 0 0 0 0 1 1',
  'AB+': '0 0 0 0 0 0 0 1',
};
const PAIRS = ORDER.flatMap((donor) =>
  ORDER.map((recipient, i) => [donor, recipient, TABLE[donor].split(' ')[i] === '1'] as const),
);

describe('canDonateRedCells', () => {
  it('covers all 64 pairs', () => {
    expect(PAIRS).toHaveLength(64);
  });

  it.each(PAIRS)('%s → %s is %s', (donor, recipient, expected) => {
    expect(canDonateRedCells(donor, recipient)).toBe(expected);
  });

  it('makes O- the universal donor and AB+ the universal recipient', () => {
    for (const type of BLOOD_TYPES) {
      expect(canDonateRedCells('O-', type)).toBe(true);
      expect(canDonateRedCells(type, 'AB+')).toBe(true);
    }
    expect(BLOOD_TYPES.filter((type) => canDonateRedCells(type, 'O-'))).toEqual(['O-']);
    expect(BLOOD_TYPES.filter((type) => canDonateRedCells('AB+', type))).toEqual(['AB+']);
  });
});

describe('compatibleDonorTypes', () => {
  it.each([
    ['O-', ['O-']],
    ['O+', ['O+', 'O-']],
    ['A-', ['A-', 'O-']],
    ['A+', ['A+', 'A-', 'O+', 'O-']],
    ['B-', ['B-', 'O-']],
    ['B+', ['B+', 'B-', 'O+', 'O-']],
    ['AB-', ['AB-', 'A-', 'B-', 'O-']],
    ['AB+', ['AB+', 'AB-', 'A+', 'B+', 'A-', 'B-', 'O+', 'O-']],
  ] as const)(
    'orders donors for %s: exact, same group, then A/B, then O',
    (recipient, expected) => {
      expect(compatibleDonorTypes(recipient)).toEqual(expected);
    },
  );

  it('lists exactly the compatible types', () => {
    for (const recipient of BLOOD_TYPES) {
      expect([...compatibleDonorTypes(recipient)].sort()).toEqual(
        [...RED_CELL_DONORS[recipient]].sort(),
      );
      expect(compatibleDonorTypes(recipient)[0]).toBe(recipient);
    }
  });
});
