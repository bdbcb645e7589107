import { describe, expect, it } from 'vitest';
import { splitPhoneNumbers, telHref, type PhoneNumber } from './phone-numbers';

const call = (text: string, tel: string): PhoneNumber => ({ text, tel });
const plain = (text: string): PhoneNumber => ({ text, tel: null });

// Every value below is copied from the directory's phone or mobile column.
describe('splitPhoneNumbers', () => {
  it('reads one landline or mobile as written', () => {
    expect(splitPhoneNumbers('040 27505566')).toEqual([call('040 27505566', '04027505566')]);
    expect(splitPhoneNumbers('9848250147')).toEqual([call('9848250147', '9848250147')]);
    expect(splitPhoneNumbers('094170-07288')).toEqual([call('094170-07288', '09417007288')]);
    expect(splitPhoneNumbers('0141 231 9350')).toEqual([call('0141 231 9350', '01412319350')]);
  });

  it('splits at commas, semicolons and slashes', () => {
    expect(splitPhoneNumbers('0612 2252156, 0612 2264117, 0612 2262540')).toEqual([
      call('0612 2252156', '06122252156'),
      call('0612 2264117', '06122264117'),
      call('0612 2262540', '06122262540'),
    ]);
    expect(splitPhoneNumbers('9823165603 / 8484987322')).toEqual([
      call('9823165603', '9823165603'),
      call('8484987322', '8484987322'),
    ]);
    expect(splitPhoneNumbers('0621 2216309;2216410')).toEqual([
      call('0621 2216309', '06212216309'),
      call('0621 2216410', '06212216410'),
    ]);
  });

  it('keeps a leading + and drops the other punctuation from the tel: number', () => {
    expect(splitPhoneNumbers('+91-9599813133, 08860626562')).toEqual([
      call('+91-9599813133', '+919599813133'),
      call('08860626562', '08860626562'),
    ]);
    expect(splitPhoneNumbers('(03512) 221087')).toEqual([call('(03512) 221087', '03512221087')]);
  });

  it('expands the endings that abbreviate the number before', () => {
    expect(splitPhoneNumbers('0361-2475550/51/52')).toEqual([
      call('0361-2475550', '03612475550'),
      call('0361-2475551', '03612475551'),
      call('0361-2475552', '03612475552'),
    ]);
    expect(splitPhoneNumbers('(03512) 221087, 221085')).toEqual([
      call('(03512) 221087', '03512221087'),
      call('(03512) 221085', '03512221085'),
    ]);
    expect(splitPhoneNumbers('0360-221 2263, 221 8780')).toEqual([
      call('0360-221 2263', '03602212263'),
      call('0360-221 8780', '03602218780'),
    ]);
  });

  it('keeps extensions, ranges and labels in the text and dials only the number', () => {
    expect(splitPhoneNumbers('0261 2368044 (Extn.1728,1729)')).toEqual([
      call('0261 2368044 (Extn.1728,1729)', '02612368044'),
    ]);
    expect(splitPhoneNumbers('0172 2295000, Extn: 401 and 405')).toEqual([
      call('0172 2295000, Extn: 401 and 405', '01722295000'),
    ]);
    expect(splitPhoneNumbers('0141 2771777  ext 109/110, 0141 2770900')).toEqual([
      call('0141 2771777 ext 109/110', '01412771777'),
      call('0141 2770900', '01412770900'),
    ]);
    expect(splitPhoneNumbers('0240 2489001 - 10')).toEqual([
      call('0240 2489001 - 10', '02402489001'),
    ]);
    expect(splitPhoneNumbers('07184 252247(Hospital), 07184 250725(Blood Bank)')).toEqual([
      call('07184 252247(Hospital)', '07184252247'),
      call('07184 250725(Blood Bank)', '07184250725'),
    ]);
  });

  it('separates numbers written in one piece of text', () => {
    expect(splitPhoneNumbers('07453 236222 PMO-9414257218')).toEqual([
      call('07453 236222', '07453236222'),
      call('PMO-9414257218', '9414257218'),
    ]);
    expect(splitPhoneNumbers('040 23095757.9703730554')).toEqual([
      call('040 23095757', '04023095757'),
      call('9703730554', '9703730554'),
    ]);
    expect(
      splitPhoneNumbers('022 22611647 (Extn. 319)                         022 22611648'),
    ).toEqual([
      call('022 22611647 (Extn. 319)', '02222611647'),
      call('022 22611648', '02222611648'),
    ]);
  });

  it('adds the trunk 0 a landline written without it needs, and drops a doubled one', () => {
    expect(splitPhoneNumbers('1204735555-1302')).toEqual([call('1204735555-1302', '01204735555')]);
    expect(splitPhoneNumbers('001985-232213')).toEqual([call('001985-232213', '01985232213')]);
  });

  it('shows what cannot be called as text, never as a broken link', () => {
    expect(splitPhoneNumbers('9.19E+11')).toEqual([plain('9.19E+11')]);
    expect(splitPhoneNumbers('0982716xxxx')).toEqual([plain('0982716xxxx')]);
    expect(splitPhoneNumbers('08172 26204')).toEqual([plain('08172 26204')]);
    expect(splitPhoneNumbers('0194 24660009 (Extn. 6528)')).toEqual([
      plain('0194 24660009 (Extn. 6528)'),
    ]);
    expect(splitPhoneNumbers('917,723,430,709,393,000,000')).toEqual([
      plain('917, 723, 430, 709, 393, 000, 000'),
    ]);
    expect(splitPhoneNumbers('022 26182081, 022 357022')).toEqual([
      call('022 26182081', '02226182081'),
      plain('022 357022'),
    ]);
  });

  it('drops cells without any digit and empty cells', () => {
    expect(splitPhoneNumbers('JAWAHAR LAL PRESIDENT', null, undefined, '')).toEqual([]);
  });

  it('lists a number given in both columns once', () => {
    expect(splitPhoneNumbers('03192 230628, 9434266561', '9434266561')).toEqual([
      call('03192 230628', '03192230628'),
      call('9434266561', '9434266561'),
    ]);
  });

  it('makes every link a tel: address of digits with an optional leading +', () => {
    const cells = [
      '0181 2224151, 0181-4614171, 0181-220130, 0181 222 1389',
      '079 22683949/50/51/52/53/54/55, 07922683721-31 (Extn.1419)',
      '022 24165638, Extn 124; 022 24146963,022 24146964,022 24146965,Extn 124',
      '0744-3010086, 0744 3010000, 10001, 10003, 0744 279 0001',
      'Dist.Secretary 9866023293',
    ];
    for (const cell of cells) {
      const numbers = splitPhoneNumbers(cell);
      expect(numbers.length).toBeGreaterThan(0);
      for (const number of numbers) {
        const href = telHref(number);
        if (href !== null) expect(href).toMatch(/^tel:\+?\d{10,13}$/);
        expect(number.text).not.toMatch(/^[\s,;/]|[\s,;/]$/);
      }
    }
    expect(telHref(plain('9.19E+11'))).toBeNull();
  });
});
