import { describe, expect, it } from 'vitest';
import { compatibleDonorTypes } from './compatibility';
import { componentDonorTypes, isStockStale, STOCK_STALE_AFTER_MS } from './blood-stock';

describe('componentDonorTypes', () => {
  it('follows the red-cell table for packed red cells, the exact group first', () => {
    expect(componentDonorTypes('prbc', 'O-')).toEqual(['O-']);
    expect(componentDonorTypes('prbc', 'AB+')).toEqual(compatibleDonorTypes('AB+'));
    expect(componentDonorTypes('prbc', 'A+')).toEqual(['A+', 'A-', 'O+', 'O-']);
  });

  it('keeps whole blood ABO-identical (RhD− may go to RhD+)', () => {
    expect(componentDonorTypes('whole_blood', 'A+')).toEqual(['A+', 'A-']);
    expect(componentDonorTypes('whole_blood', 'A-')).toEqual(['A-']);
  });

  it('reverses the table for plasma: AB plasma for everyone, O plasma for O only', () => {
    expect(componentDonorTypes('ffp', 'O+')).toEqual([
      'O+',
      'A+',
      'A-',
      'B+',
      'B-',
      'AB+',
      'AB-',
      'O-',
    ]);
    expect(componentDonorTypes('cryo', 'AB-')).toEqual(['AB-', 'AB+']);
  });

  it('gives RhD− platelet recipients RhD− platelets only', () => {
    expect(componentDonorTypes('platelets', 'B-')).toEqual(['B-', 'AB-']);
    expect(componentDonorTypes('platelets', 'B+')).toEqual(['B+', 'B-', 'AB+', 'AB-']);
  });
});

describe('isStockStale', () => {
  it('turns stale after 24 hours, not at 24 hours', () => {
    const at = Date.parse('2026-11-25T19:00:00Z'); // 00:30 IST
    expect(isStockStale(new Date(at), at + STOCK_STALE_AFTER_MS)).toBe(false);
    expect(isStockStale(new Date(at).toISOString(), at + STOCK_STALE_AFTER_MS + 1)).toBe(true);
  });
});
