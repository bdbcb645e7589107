import { describe, expect, it } from 'vitest';
import { pdfInfo, pdfLines, pdfPieces } from '../../test/pdf-text';
import { renderCertificatePdf, type CertificateContent } from './certificate-pdf';
import { CERTIFICATE_LANGUAGES, certificateTexts } from './certificate-texts';

const PAGE_CENTRE = 841.89 / 2;

function content(overrides: Partial<CertificateContent> = {}): CertificateContent {
  return {
    donorName: 'Asha Verma',
    // 01:30 on 25 November in India, still the 24th in UTC.
    donatedAt: new Date('2026-11-24T20:00:00Z'),
    place: 'KEM Hospital, Mumbai',
    bloodType: 'O+',
    units: 1,
    certificateNumber: 'BDMS-2026-7K3M9QXA',
    verificationUrl: 'https://blood.example.in/api/v1/certificates/BDMS-2026-7K3M9QXA',
    language: 'en',
    ...overrides,
  };
}

/** The drawn text object(s) of the line that reads `text`. */
async function nameLine(pdf: Uint8Array, text: string) {
  const pieces = pdfPieces(pdf).filter((piece) => piece.text === text);
  expect(pieces, `a text object reading ${text}`).toHaveLength(1);
  return pieces[0]!;
}

describe('renderCertificatePdf: names in any script', () => {
  it('prints a Devanagari name that reads back as राजेश कुमार, in a Devanagari font', async () => {
    const pdf = await renderCertificatePdf(content({ donorName: 'राजेश कुमार' }));
    expect(pdfLines(pdf)).toContain('राजेश कुमार');
    expect(pdfLines(pdf).join('\n')).not.toContain('?');
    const piece = await nameLine(pdf, 'राजेश कुमार');
    expect(piece.font).toMatch(/NotoSansDevanagari-Bold$/);
    expect(piece.glyphs.join('')).toBe('राजेश कुमार');
  });

  it('shapes conjuncts, the reph and the i-matra: the glyphs are reordered, the text reads back in order', async () => {
    const name = 'धर्मेंद्र क्षत्रिय';
    const pdf = await renderCertificatePdf(content({ donorName: name, language: 'hi' }));
    expect(pdfLines(pdf)).toContain(name);
    const { glyphs } = await nameLine(pdf, name);
    // One glyph each for the conjuncts क्ष and त्र (क + ् + ष would be three without shaping).
    expect(glyphs).toContain('क्ष');
    expect(glyphs).toContain('द्र');
    expect(glyphs).toContain('त्र');
    // ि is typed after त्र but drawn before it.
    expect(glyphs.indexOf('ि')).toBe(glyphs.indexOf('त्र') - 1);
    // The reph र् is typed before म but drawn after it, above its right side.
    const reph = glyphs.findIndex((glyph) => glyph.includes('र्'));
    expect(reph).toBeGreaterThan(glyphs.indexOf('म'));
  });

  it('prints Bengali, Tamil and Telugu names in their own fonts and reads them back', async () => {
    const cases = [
      { donorName: 'সৌমিত্র বন্দ্যোপাধ্যায়', language: 'bn', font: /NotoSansBengali-Bold$/ },
      { donorName: 'கார்த்திகேயன் செல்வம்', language: 'ta', font: /NotoSansTamil-Bold$/ },
      // Noto Sans Telugu has NULL mark anchors, which made fontkit throw before the patch.
      { donorName: 'శ్రీనివాస్ రెడ్డి', language: 'te', font: /NotoSansTelugu-Bold$/ },
    ];
    for (const { donorName, language, font } of cases) {
      const pdf = await renderCertificatePdf(content({ donorName, language }));
      expect(pdfLines(pdf)).toContain(donorName);
      const piece = await nameLine(pdf, donorName);
      expect(piece.font).toMatch(font);
      expect((piece.x + piece.endX) / 2).toBeCloseTo(PAGE_CENTRE, 0);
    }
    // Bengali ো is split around its consonant: ে drawn first.
    const bengali = await renderCertificatePdf(content({ donorName: 'সৌমিত্র', language: 'bn' }));
    expect((await nameLine(bengali, 'সৌমিত্র')).glyphs[0]).toBe('ে');
  });

  it('prints an Arabic name right to left, centred, and reads it back in logical order', async () => {
    const name = 'محمد علي';
    const pdf = await renderCertificatePdf(content({ donorName: name }));
    const lines = pdfLines(pdf);
    expect(lines).toContain(name);
    const piece = await nameLine(pdf, name);
    expect(piece.font).toMatch(/NotoSansArabic-Bold$/);
    // Drawn in visual order: the last letter first, the words swapped.
    expect(piece.glyphs.filter(Boolean)).toEqual([...name].reverse());
    expect((piece.x + piece.endX) / 2).toBeCloseTo(PAGE_CENTRE, 0);
    // The rest of the layout is untouched.
    expect(lines.slice(0, 3)).toEqual([
      'Blood Donation Management System',
      'Certificate of Blood Donation',
      'This certificate is presented to',
    ]);
    expect(lines).toContain('at KEM Hospital, Mumbai.');
  });

  it('keeps a Latin name in a Hindi certificate in the Latin font, and mixed lines in reading order', async () => {
    const pdf = await renderCertificatePdf(
      content({ donorName: 'Asha Verma', language: 'hi', place: 'Sassoon General Hospital, Pune' }),
    );
    const lines = pdfLines(pdf);
    expect(lines).toContain('Asha Verma');
    expect((await nameLine(pdf, 'Asha Verma')).font).toMatch(/NotoSans-Bold$/);
    expect(lines).toContain('ने दिनांक २५ नवंबर २०२६ को Sassoon General Hospital, Pune में');
  });
});

describe('renderCertificatePdf: the certificate in the donor’s language', () => {
  it('is in English with everything the certificate showed before', async () => {
    const pdf = await renderCertificatePdf(content({ units: 2 }));
    expect(pdfLines(pdf)).toEqual([
      'Blood Donation Management System',
      'Certificate of Blood Donation',
      'This certificate is presented to',
      'Asha Verma',
      'in gratitude for voluntarily donating 2 units of blood on 25 November 2026',
      'at KEM Hospital, Mumbai.',
      'Blood type: O+',
      'Every donation can help save up to three lives. Thank you.',
      'Certificate number: BDMS-2026-7K3M9QXA',
      'Verify at https://blood.example.in/api/v1/certificates/BDMS-2026-7K3M9QXA',
    ]);
    const info = pdfInfo(pdf);
    expect(info).toMatchObject({
      pages: 1,
      title: 'Certificate of Blood Donation BDMS-2026-7K3M9QXA',
      language: 'en-IN',
      mediaBox: [0, 0, 841.89, 595.28],
    });
  });

  it('is in Hindi for a Hindi-speaking donor, with the date in India and in Devanagari digits', async () => {
    const pdf = await renderCertificatePdf(content({ donorName: 'राजेश कुमार', language: 'hi' }));
    expect(pdfLines(pdf)).toEqual([
      'रक्तदान प्रबंधन प्रणाली',
      'रक्तदान प्रमाणपत्र',
      'प्रमाणित किया जाता है कि',
      'राजेश कुमार',
      'ने दिनांक २५ नवंबर २०२६ को KEM Hospital, Mumbai में',
      'स्वेच्छा से एक यूनिट रक्त का दान किया।',
      'रक्त समूह: O+',
      'हर रक्तदान तीन लोगों तक की जान बचाने में मदद कर सकता है। धन्यवाद।',
      'प्रमाणपत्र संख्या: BDMS-2026-7K3M9QXA',
      'सत्यापन के लिए: https://blood.example.in/api/v1/certificates/BDMS-2026-7K3M9QXA',
    ]);
    expect(pdfInfo(pdf)).toMatchObject({
      title: 'रक्तदान प्रमाणपत्र BDMS-2026-7K3M9QXA',
      language: 'hi-IN',
    });
  });

  it('is in Spanish, Bengali, Marathi, Telugu and Tamil too, and in English for other languages', async () => {
    const expected: Record<string, string[]> = {
      es: [
        'Certificado de Donación de Sangre',
        'en agradecimiento por donar voluntariamente una unidad de sangre el 25 de noviembre de 2026',
        'Grupo sanguíneo: O+',
      ],
      bn: [
        'রক্তদানের শংসাপত্র',
        '২৫ নভেম্বর, ২০২৬ তারিখে স্বেচ্ছায় এক ইউনিট রক্তদান করেছেন।',
        'স্থান: KEM Hospital, Mumbai',
      ],
      mr: [
        'रक्तदान प्रमाणपत्र',
        'यांनी दिनांक २५ नोव्हेंबर, २०२६ रोजी KEM Hospital, Mumbai येथे',
        'रक्तगट: O+',
      ],
      te: [
        'రక్తదాన ధృవీకరణ పత్రం',
        '25 నవంబర్, 2026 న స్వచ్ఛందంగా ఒక యూనిట్ రక్తదానం చేసినందుకు కృతజ్ఞతలతో',
        'స్థలం: KEM Hospital, Mumbai',
      ],
      ta: [
        'இரத்த தானச் சான்றிதழ்',
        '25 நவம்பர், 2026 அன்று தன்னார்வமாக ஒரு யூனிட் இரத்த தானம் செய்ததற்கு நன்றியுடன்',
        'இடம்: KEM Hospital, Mumbai',
      ],
      fr: [
        'Certificate of Blood Donation',
        'in gratitude for voluntarily donating one unit of blood on 25 November 2026',
      ],
    };
    for (const [language, lines] of Object.entries(expected)) {
      const pdf = await renderCertificatePdf(content({ language }));
      const printed = pdfLines(pdf);
      for (const line of lines) expect(printed, language).toContain(line);
      expect(printed, language).toContain('Asha Verma');
    }
    // Every language's fixed texts print with no missing glyph (.notdef, code 0).
    for (const language of CERTIFICATE_LANGUAGES) {
      const texts = certificateTexts(language);
      const pdf = await renderCertificatePdf(content({ language }));
      expect(pdfLines(pdf)).toContain(texts.closing);
      expect(
        pdfPieces(pdf).flatMap((piece) => piece.codes),
        language,
      ).not.toContain(0);
    }
  });

  it('names an erased donor neutrally, in the language of the certificate', async () => {
    const pdf = await renderCertificatePdf(content({ donorName: null, language: 'hi' }));
    expect(pdfLines(pdf)[3]).toBe('रक्तदाता');
  });

  it('shrinks a long name to fit inside the border', async () => {
    const name = 'श्रीमती '.repeat(12).trim();
    const pdf = await renderCertificatePdf(content({ donorName: name, language: 'hi' }));
    const piece = await nameLine(pdf, name);
    expect(piece.x).toBeGreaterThanOrEqual(80 - 0.5);
    expect(piece.endX).toBeLessThanOrEqual(841.89 - 80 + 0.5);
  });

  it('gives the same bytes for the same certificate', async () => {
    const a = await renderCertificatePdf(content({ donorName: 'राजेश कुमार', language: 'hi' }));
    const b = await renderCertificatePdf(content({ donorName: 'राजेश कुमार', language: 'hi' }));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
