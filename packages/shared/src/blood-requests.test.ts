import { describe, expect, it } from 'vitest';
import {
  BLOOD_REQUEST_STATUSES,
  canTransition,
  createBloodRequestSchema,
  listBloodRequestsQuerySchema,
  respondSchema,
  trackingCodeParamsSchema,
  trackingSchema,
  updateBloodRequestSchema,
  updateStatusSchema,
  type BloodRequestStatus,
} from './blood-requests';

const DAY = 86_400_000;
const valid = {
  bloodType: 'O-',
  unitsNeeded: 2,
  urgency: 'critical',
  hospitalName: 'Gandhi Hospital',
  city: 'Secunderabad',
  state: 'Telangana',
  contactName: 'Ravi Kumar',
  contactPhone: '098765 43210',
};

describe('createBloodRequestSchema', () => {
  it('accepts a minimal request and stores the phone in E.164', () => {
    const parsed = createBloodRequestSchema.parse(valid);
    expect(parsed.contactPhone).toBe('+919876543210');
  });

  it.each([
    ['unitsNeeded = 0', { unitsNeeded: 0 }, 'unitsNeeded'],
    ['unitsNeeded = 11', { unitsNeeded: 11 }, 'unitsNeeded'],
    ['unitsNeeded = 1.5', { unitsNeeded: 1.5 }, 'unitsNeeded'],
    ['urgency = normal', { urgency: 'normal' }, 'urgency'],
    ['bloodType = O', { bloodType: 'O' }, 'bloodType'],
    ['contactPhone = 12345', { contactPhone: '12345' }, 'contactPhone'],
    ['contactEmail = not-an-email', { contactEmail: 'not-an-email' }, 'contactEmail'],
    ['pincode = 50003', { pincode: '50003' }, 'pincode'],
    ['notes = 1001 characters', { notes: 'x'.repeat(1001) }, 'notes'],
    ['latitude = 17.4', { latitude: 17.4 }, 'longitude'],
    [
      'requiredBy = a minute ago',
      { requiredBy: new Date(Date.now() - 60_000).toISOString() },
      'requiredBy',
    ],
    [
      'requiredBy = in 31 days',
      { requiredBy: new Date(Date.now() + 31 * DAY).toISOString() },
      'requiredBy',
    ],
    ['requiredBy = tomorrow', { requiredBy: 'tomorrow' }, 'requiredBy'],
  ] as const)('rejects %s on %s', (_label, override, path) => {
    const result = createBloodRequestSchema.safeParse({ ...valid, ...override });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual([path]);
  });

  it('accepts a requiredBy within 30 days and 1000 characters of notes', () => {
    const requiredBy = new Date(Date.now() + 29 * DAY).toISOString();
    const parsed = createBloodRequestSchema.parse({
      ...valid,
      requiredBy,
      notes: 'x'.repeat(1000),
      latitude: 17.44,
      longitude: 78.5,
      contactEmail: ' Ravi@Example.org ',
    });
    expect(parsed.contactEmail).toBe('ravi@example.org');
    expect(parsed.requiredBy).toBe(requiredBy);
  });
});

describe('updateBloodRequestSchema', () => {
  it('accepts a partial change, clears with null, and refuses status or unknown fields', () => {
    expect(updateBloodRequestSchema.parse({ unitsNeeded: 3, notes: null })).toEqual({
      unitsNeeded: 3,
      notes: null,
    });
    expect(updateBloodRequestSchema.safeParse({ status: 'fulfilled' }).success).toBe(false);
    expect(updateBloodRequestSchema.safeParse({}).success).toBe(false);
    expect(updateBloodRequestSchema.safeParse({ latitude: 17 }).success).toBe(false);
  });
});

describe('state machine', () => {
  const allowed: [BloodRequestStatus, BloodRequestStatus][] = [
    // A guest's request waiting for its phone code (issue #16): confirmed, or never.
    ['unconfirmed', 'pending'],
    ['unconfirmed', 'expired'],
    ['pending', 'verified'],
    ['pending', 'cancelled'],
    ['pending', 'expired'],
    ['verified', 'in_progress'],
    ['verified', 'cancelled'],
    ['verified', 'expired'],
    ['in_progress', 'fulfilled'],
    ['in_progress', 'cancelled'],
    ['in_progress', 'expired'],
  ];
  const key = (pair: readonly string[]) => pair.join('→');
  const allowedKeys = new Set(allowed.map(key));
  const all = BLOOD_REQUEST_STATUSES.flatMap((from) =>
    BLOOD_REQUEST_STATUSES.map((to) => [from, to] as const),
  );

  it.each(all)('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(allowedKeys.has(key([from, to])));
  });
});

describe('small schemas', () => {
  it('parses status, respond, list query and tracking code', () => {
    expect(updateStatusSchema.parse({ status: 'verified', notes: ' checked ' })).toEqual({
      status: 'verified',
      notes: 'checked',
    });
    expect(respondSchema.safeParse({ response: 'maybe' }).success).toBe(false);
    expect(listBloodRequestsQuerySchema.parse({ page: '2' })).toEqual({ page: 2, pageSize: 20 });
    expect(listBloodRequestsQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(trackingCodeParamsSchema.parse({ trackingCode: 'abcd2345' }).trackingCode).toBe(
      'ABCD2345',
    );
    expect(trackingCodeParamsSchema.safeParse({ trackingCode: 'ab-cd' }).success).toBe(false);
  });

  it('has no field for personal data in the tracking reply', () => {
    const keys = Object.keys(trackingSchema.shape);
    for (const field of [
      'contactName',
      'contactPhone',
      'contactEmail',
      'patientName',
      'address',
      'notes',
    ]) {
      expect(keys).not.toContain(field);
    }
  });
});
