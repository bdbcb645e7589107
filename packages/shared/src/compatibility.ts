import { BLOOD_TYPES, type BloodType } from './constants';

/**
 * Red-cell compatibility (ABO and RhD): which donor's red cells a recipient can receive.
 * A recipient's plasma carries antibodies against the A/B antigens it lacks, and an RhD-negative
 * recipient must not be given RhD-positive cells. So O− gives to everyone (universal donor) and
 * AB+ receives from everyone (universal recipient). Source: NBTC / WHO clinical transfusion
 * practice tables (whole blood and packed red cells; plasma compatibility is the reverse and
 * is not used here). Keyed recipient → donors, as blood banks print it.
 */
export const RED_CELL_DONORS: Record<BloodType, readonly BloodType[]> = {
  'O-': ['O-'],
  'O+': ['O+', 'O-'],
  'A-': ['A-', 'O-'],
  'A+': ['A+', 'A-', 'O+', 'O-'],
  'B-': ['B-', 'O-'],
  'B+': ['B+', 'B-', 'O+', 'O-'],
  'AB-': ['AB-', 'A-', 'B-', 'O-'],
  'AB+': ['AB+', 'AB-', 'A+', 'A-', 'B+', 'B-', 'O+', 'O-'],
};

export function isBloodType(value: unknown): value is BloodType {
  return typeof value === 'string' && (BLOOD_TYPES as readonly string[]).includes(value);
}

/** True when `donor`'s red cells can be given to `recipient`. */
export function canDonateRedCells(donor: BloodType, recipient: BloodType): boolean {
  return RED_CELL_DONORS[recipient].includes(donor);
}

const abo = (type: BloodType) => type.slice(0, -1);
const rh = (type: BloodType) => type.slice(-1);

/**
 * The donor types a recipient can receive, in the order they should be asked:
 * 1. the exact type;
 * 2. the same ABO group with the other RhD (only RhD− can give to RhD+, e.g. A− for A+);
 * 3. for an AB recipient, A and B (same RhD first), before O;
 * 4. O, same RhD first, so O− — the only type an O− patient can receive — is asked last.
 * Asking the exact type first spares the scarce universal donors for the patients who need them.
 */
export function compatibleDonorTypes(recipient: BloodType): BloodType[] {
  const rank = (donor: BloodType): [number, number] => {
    const group = abo(donor) === abo(recipient) ? 0 : abo(donor) === 'O' ? 2 : 1;
    return [group, rh(donor) === rh(recipient) ? 0 : 1];
  };
  return [...RED_CELL_DONORS[recipient]].sort((a, b) => {
    const [ga, ra] = rank(a);
    const [gb, rb] = rank(b);
    return ga - gb || ra - rb || BLOOD_TYPES.indexOf(a) - BLOOD_TYPES.indexOf(b);
  });
}
