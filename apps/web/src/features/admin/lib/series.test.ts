import { describe, expect, it } from 'vitest';
import { bucketFor, groupSeries } from './series';

function days(count: number, start = '2026-01-01') {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(first + index * 86_400_000).toISOString().slice(0, 10),
    registrations: 1,
    requests: index % 2,
    donations: 0,
  }));
}

describe('groupSeries', () => {
  it('keeps days for 7 and 30 days', () => {
    expect(bucketFor('7d')).toBe('day');
    expect(bucketFor('30d')).toBe('day');
    expect(groupSeries(days(7), 'day')).toHaveLength(7);
  });

  it('sums weeks from the first day of the range for 90 days', () => {
    const weeks = groupSeries(days(90), bucketFor('90d'));
    expect(weeks).toHaveLength(13);
    expect(weeks[0]).toEqual({ start: '2026-01-01', registrations: 7, requests: 3, donations: 0 });
    expect(weeks.at(-1)).toMatchObject({ start: '2026-03-26', registrations: 6 });
    expect(weeks.reduce((sum, week) => sum + week.registrations, 0)).toBe(90);
  });

  it('sums calendar months for a year', () => {
    const months = groupSeries(days(365, '2025-11-22'), bucketFor('1y'));
    expect(months).toHaveLength(13);
    expect(months[0]).toMatchObject({ start: '2025-11-22', registrations: 9 });
    expect(months[1]).toMatchObject({ start: '2025-12-01', registrations: 31 });
  });
});
