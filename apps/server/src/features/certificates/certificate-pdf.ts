import { APP_NAME } from '@bdms/shared';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** A4 landscape, in PDF points. */
const PAGE = { width: 841.89, height: 595.28 };
const RED = rgb(0.725, 0.11, 0.11);
const INK = rgb(0.12, 0.16, 0.22);
const MUTED = rgb(0.33, 0.36, 0.4);

export interface CertificateContent {
  donorName: string;
  donatedAt: Date;
  place: string;
  bloodType: string | null;
  units: number;
  certificateNumber: string;
  verificationUrl: string;
}

/**
 * The standard PDF fonts only cover Western European characters (WinAnsi); other characters
 * (a name in Devanagari, for one) would make pdf-lib throw, so they are replaced. Embedding a
 * Unicode font needs @pdf-lib/fontkit and a font file, which the project does not ship yet.
 */
function printable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return Array.from(text.normalize('NFC'))
    .map((char) => (supported.has(char.codePointAt(0) ?? 0) ? char : '?'))
    .join('');
}

function centered(
  page: PDFPage,
  font: PDFFont,
  text: string,
  y: number,
  size: number,
  color = INK,
) {
  const safe = printable(font, text);
  let fontSize = size;
  // Long names and places shrink to fit inside the border.
  while (fontSize > 8 && font.widthOfTextAtSize(safe, fontSize) > PAGE.width - 160) fontSize -= 1;
  const width = font.widthOfTextAtSize(safe, fontSize);
  page.drawText(safe, { x: (PAGE.width - width) / 2, y, size: fontSize, font, color });
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(date);
}

/**
 * The certificate of one verified donation, generated on request (nothing is stored). Object
 * streams are off so the file stays readable by simple tools and the tests.
 */
export async function renderCertificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of Blood Donation ${content.certificateNumber}`);
  pdf.setAuthor(APP_NAME);
  pdf.setCreator(APP_NAME);
  pdf.setProducer(APP_NAME);
  pdf.setCreationDate(content.donatedAt);
  pdf.setModificationDate(content.donatedAt);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);

  page.drawRectangle({
    x: 24,
    y: 24,
    width: PAGE.width - 48,
    height: PAGE.height - 48,
    borderColor: RED,
    borderWidth: 4,
  });
  page.drawRectangle({
    x: 36,
    y: 36,
    width: PAGE.width - 72,
    height: PAGE.height - 72,
    borderColor: RED,
    borderWidth: 1,
  });

  centered(page, bold, APP_NAME, 500, 20, RED);
  centered(page, bold, 'Certificate of Blood Donation', 440, 34);
  centered(page, regular, 'This certificate is presented to', 390, 14, MUTED);
  centered(page, bold, content.donorName, 345, 30);
  const units = content.units === 1 ? 'one unit' : `${content.units} units`;
  centered(
    page,
    regular,
    `in gratitude for voluntarily donating ${units} of blood on ${formatDate(content.donatedAt)}`,
    305,
    14,
  );
  centered(page, regular, `at ${content.place}.`, 283, 14);
  if (content.bloodType) centered(page, bold, `Blood type: ${content.bloodType}`, 245, 16, RED);
  centered(
    page,
    regular,
    'Every donation can help save up to three lives. Thank you.',
    200,
    12,
    MUTED,
  );
  centered(page, bold, `Certificate number: ${content.certificateNumber}`, 120, 12);
  centered(page, regular, `Verify at ${content.verificationUrl}`, 100, 10, MUTED);

  return pdf.save({ useObjectStreams: false });
}
