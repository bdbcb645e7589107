import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it('reads a quoted file name', () => {
    expect(fileNameFromDisposition('attachment; filename="donors-export-2026-11-21.csv"')).toBe(
      'donors-export-2026-11-21.csv',
    );
  });

  it('prefers the UTF-8 name when both are given', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="Report.pdf"; filename*=UTF-8''%E0%A4%B0%E0%A4%BF%E0%A4%AA%E0%A5%8B%E0%A4%B0%E0%A5%8D%E0%A4%9F.pdf`,
      ),
    ).toBe('रिपोर्ट.pdf');
  });

  it('reads an unquoted name and drops path separators', () => {
    expect(fileNameFromDisposition('attachment; filename=../x/data.csv')).toBe('.._x_data.csv');
  });

  it('gives nothing without a header or a name', () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
  });
});
