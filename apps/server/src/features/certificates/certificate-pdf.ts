import { createPdfDocument, pdfBytes, PdfText, type FontStyle } from '../../lib/pdf/text';
import { certificateTexts } from './certificate-texts';

/** A4 landscape, in PDF points. */
const PAGE = { width: 841.89, height: 595.28 };
const RED = '#b91c1c';
const INK = '#1f2937';
const MUTED = '#545c66';

export interface CertificateContent {
  /** Null when the donor's account was erased: a neutral "blood donor" is printed. */
  donorName: string | null;
  donatedAt: Date;
  place: string;
  bloodType: string | null;
  units: number;
  certificateNumber: string;
  verificationUrl: string;
  /** The donor's language (users.language); unknown languages print in English. */
  language: string | null;
}

/** Intl formatters are costly to build: one per locale for the process. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of the donation in India (Asia/Kolkata), e.g. "25 November 2026", "२५ नवंबर २०२६". */
export function formatCertificateDate(date: Date, locale: string): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Asia/Kolkata',
    });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/**
 * The certificate of one verified donation, generated on request (nothing is stored), in the
 * donor's language. Names, places and texts in any script the fonts cover (Latin, Devanagari,
 * Bengali, Tamil, Telugu, Arabic) print shaped; each line is drawn centred with its runs in
 * reading order.
 */
export async function renderCertificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const texts = certificateTexts(content.language);
  const doc = createPdfDocument({
    title: `${texts.title} ${content.certificateNumber}`,
    author: texts.appName,
    language: texts.lang,
    date: content.donatedAt,
    size: [PAGE.width, PAGE.height],
  });
  doc.addPage();
  const text = new PdfText(doc);

  doc
    .lineWidth(4)
    .strokeColor(RED)
    .rect(24, 24, PAGE.width - 48, PAGE.height - 48)
    .stroke();
  doc
    .lineWidth(1)
    .rect(36, 36, PAGE.width - 72, PAGE.height - 72)
    .stroke();

  /** `fromBottom`: the baseline's height above the bottom edge (as the layout was drawn). */
  const centered = (
    line: string,
    fromBottom: number,
    size: number,
    style: FontStyle = 'regular',
    color = INK,
  ) => {
    // Long names and places shrink (whole points, down to 8) to fit inside the border.
    const natural = text.width(line, { size: 1, style });
    const fontSize = Math.max(8, Math.min(size, Math.floor((PAGE.width - 160) / natural)));
    const width = natural * fontSize;
    text.draw(line, (PAGE.width - width) / 2, PAGE.height - fromBottom, {
      size: fontSize,
      style,
      color,
    });
  };

  const count = new Intl.NumberFormat(texts.locale).format(content.units);
  const date = formatCertificateDate(content.donatedAt, texts.locale);
  const [donation, place] = texts.donation(count, content.units, date, content.place);

  centered(texts.appName, 500, 20, 'bold', RED);
  centered(texts.title, 440, 34, 'bold');
  centered(texts.presentedTo, 390, 14, 'regular', MUTED);
  centered(content.donorName?.trim() || texts.anonymousDonor, 345, 30, 'bold');
  centered(donation, 305, 14);
  centered(place, 283, 14);
  if (content.bloodType) centered(texts.bloodType(content.bloodType), 245, 16, 'bold', RED);
  centered(texts.closing, 200, 12, 'regular', MUTED);
  centered(texts.number(content.certificateNumber), 120, 12, 'bold');
  centered(texts.verify(content.verificationUrl), 100, 10, 'regular', MUTED);

  return pdfBytes(doc);
}
