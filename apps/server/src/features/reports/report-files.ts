import { REQUEST_OUTCOMES, URGENCIES, type MonthlyReport } from '@bdms/shared';
import { stringify } from 'csv-stringify/sync';
import { createPdfDocument, pdfBytes, PdfText, type FontStyle } from '../../lib/pdf/text';
import { neutraliseCell } from '../admin/donor-export.service';
import { monthName, reportTexts } from './report-texts';

/**
 * The report as CSV, one fact a row (`section,key,metric,value`), so a spreadsheet can pivot it:
 * `totals`, `requests` (key: urgency, metric: outcome), `first_acceptance`, `state` (key: the
 * state, empty when none was given) and `day` (key: the Indian date). State names were typed by
 * people, so every cell is neutralised against formula injection.
 */
export function reportCsv(report: MonthlyReport): string {
  const rows: (string | number)[][] = [['section', 'key', 'metric', 'value']];
  rows.push(['report', report.month, 'from', report.from]);
  rows.push(['report', report.month, 'until', report.until]);
  rows.push(['report', report.month, 'complete', String(report.complete)]);
  for (const [metric, value] of Object.entries(report.totals)) {
    rows.push(['totals', '', metric, value]);
  }
  for (const urgency of URGENCIES) {
    for (const outcome of REQUEST_OUTCOMES) {
      rows.push(['requests', urgency, outcome, report.requestsByUrgency[urgency][outcome]]);
    }
  }
  const first = report.firstAcceptance;
  rows.push(['first_acceptance', '', 'accepted_requests', first.accepted]);
  rows.push(['first_acceptance', '', 'median_minutes', first.medianMinutes ?? '']);
  rows.push(['first_acceptance', '', 'average_minutes', first.averageMinutes ?? '']);
  for (const row of report.byState) {
    for (const metric of ['registrations', 'approvals', 'requests', 'donations'] as const) {
      rows.push(['state', row.state ?? '', metric, row[metric]]);
    }
  }
  for (const day of report.days) {
    for (const metric of ['registrations', 'requests', 'donations'] as const) {
      rows.push(['day', day.date, metric, day[metric]]);
    }
  }
  return stringify(
    rows.map((row) => row.map((cell) => (typeof cell === 'number' ? cell : neutraliseCell(cell)))),
    { record_delimiter: 'windows' },
  );
}

/** A4 portrait, in PDF points. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const RED = '#b91c1c';
const INK = '#1f2937';
const MUTED = '#545c66';
const RULE = '#d1d5db';

/**
 * The report as a PDF in the administrator's language: headline figures, a bar chart of each
 * day's requests, requests by urgency and outcome, time to the first accepted donor, and the
 * table by state (continued on new pages as needed). Generated on request, nothing stored.
 */
export async function reportPdf(
  report: MonthlyReport,
  language: string | null | undefined,
  generatedAt: Date,
): Promise<Uint8Array> {
  const texts = reportTexts(language);
  const number = new Intl.NumberFormat(texts.locale);
  const month = monthName(report.month, texts.locale);
  const doc = createPdfDocument({
    title: `${texts.title}: ${month}`,
    author: 'Blood Donation Management System',
    language: texts.locale,
    date: generatedAt,
    size: [PAGE.width, PAGE.height],
  });
  const text = new PdfText(doc);
  let y = 0;
  const newPage = () => {
    doc.addPage();
    y = MARGIN;
  };
  const ensure = (height: number) => {
    if (y + height > PAGE.height - MARGIN) newPage();
  };
  const line = (
    value: string,
    x: number,
    size: number,
    style: FontStyle = 'regular',
    color = INK,
  ) => text.draw(value, x, y, { size, style, color });
  const right = (value: string, xEnd: number, size: number, style: FontStyle = 'regular') =>
    text.draw(value, xEnd - text.width(value, { size, style }), y, { size, style, color: INK });
  const rule = () => {
    doc
      .lineWidth(0.5)
      .strokeColor(RULE)
      .moveTo(MARGIN, y + 5)
      .lineTo(PAGE.width - MARGIN, y + 5)
      .stroke();
  };
  /** A table: the first column left, the others right-aligned in equal columns. */
  const table = (header: string[], rows: string[][], firstWidth: number) => {
    const columns = header.length - 1;
    const width = (PAGE.width - 2 * MARGIN - firstWidth) / Math.max(1, columns);
    const drawRow = (cells: string[], style: FontStyle) => {
      ensure(18);
      y += 16;
      line(cells[0] ?? '', MARGIN, 10, style);
      cells.slice(1).forEach((cell, index) => {
        right(cell, MARGIN + firstWidth + (index + 1) * width, 10, style);
      });
      rule();
    };
    drawRow(header, 'bold');
    for (const row of rows) drawRow(row, 'regular');
  };
  const heading = (value: string) => {
    ensure(48);
    y += 30;
    line(value, MARGIN, 13, 'bold', RED);
  };

  newPage();
  y += 18;
  line(texts.title, MARGIN, 22, 'bold', RED);
  y += 26;
  line(month, MARGIN, 16, 'bold');
  y += 18;
  const generated = new Intl.DateTimeFormat(texts.locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(generatedAt);
  line(
    report.complete ? texts.generated(generated) : `${texts.running} ${texts.generated(generated)}`,
    MARGIN,
    9,
    'regular',
    MUTED,
  );

  heading(texts.totals);
  table(
    ['', texts.registrations, texts.approvals, texts.requests, texts.donations, texts.units],
    [
      [
        '',
        number.format(report.totals.registrations),
        number.format(report.totals.approvals),
        number.format(report.totals.requests),
        number.format(report.totals.donations),
        number.format(report.totals.donationUnits),
      ],
    ],
    0,
  );

  // Each day's requests, registrations and donations as bars (a shared scale per metric).
  for (const metric of ['registrations', 'requests', 'donations'] as const) {
    heading(texts[metric]);
    const chartHeight = 60;
    ensure(chartHeight + 20);
    const top = y + 8;
    const max = Math.max(1, ...report.days.map((day) => day[metric]));
    const slot = (PAGE.width - 2 * MARGIN - 30) / Math.max(1, report.days.length);
    report.days.forEach((day, index) => {
      const height = (day[metric] / max) * chartHeight;
      if (height > 0) {
        doc
          .rect(
            MARGIN + 30 + index * slot + slot * 0.15,
            top + chartHeight - height,
            slot * 0.7,
            height,
          )
          .fill('#475569');
      }
    });
    doc
      .lineWidth(0.5)
      .strokeColor(RULE)
      .moveTo(MARGIN + 30, top + chartHeight)
      .lineTo(PAGE.width - MARGIN, top + chartHeight)
      .stroke();
    y = top + 8;
    right(number.format(max), MARGIN + 26, 8);
    y = top + chartHeight;
    right(number.format(0), MARGIN + 26, 8);
    const first = report.days[0];
    const last = report.days.at(-1);
    y += 12;
    if (first) line(first.date, MARGIN + 30, 8, 'regular', MUTED);
    if (last && last !== first) right(last.date, PAGE.width - MARGIN, 8);
  }

  heading(texts.byUrgency);
  table(
    ['', ...REQUEST_OUTCOMES.map((outcome) => texts.outcome[outcome]), texts.total],
    URGENCIES.map((urgency) => {
      const counts = report.requestsByUrgency[urgency];
      const total = REQUEST_OUTCOMES.reduce((sum, outcome) => sum + counts[outcome], 0);
      return [
        texts.urgency[urgency],
        ...REQUEST_OUTCOMES.map((outcome) => number.format(counts[outcome])),
        number.format(total),
      ];
    }),
    90,
  );

  heading(texts.firstAcceptance);
  const minutes = (value: number | null) =>
    value === null ? texts.none : texts.minutes(number.format(value));
  table(
    ['', texts.accepted, texts.median, texts.average],
    [
      [
        '',
        number.format(report.firstAcceptance.accepted),
        minutes(report.firstAcceptance.medianMinutes),
        minutes(report.firstAcceptance.averageMinutes),
      ],
    ],
    0,
  );

  heading(texts.byState);
  table(
    [texts.state, texts.registrations, texts.approvals, texts.requests, texts.donations],
    report.byState.map((row) => [
      row.state ?? texts.stateUnknown,
      number.format(row.registrations),
      number.format(row.approvals),
      number.format(row.requests),
      number.format(row.donations),
    ]),
    150,
  );

  return pdfBytes(doc);
}
