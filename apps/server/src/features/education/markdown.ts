/**
 * A small reader for the Markdown the content files may use (content/README.md "The body"):
 * paragraphs, `##`/`###` headings, bulleted and numbered lists, bold, italic, links, inline
 * code, blockquotes, simple pipe tables and rules. The server never turns it into HTML (the web
 * app does); it reads it to check the files when loading them and to lay out the article PDF.
 * Anything outside the subset degrades to plain text instead of failing.
 */

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** Set on the words of a link's text. */
  href?: string;
}

export interface ListItem {
  /** 0 for top-level items, 1 for items indented under them, … */
  depth: number;
  /** `•` for bullets, `3.` for numbered items. */
  marker: string;
  spans: Span[];
}

export type Block =
  | { type: 'heading'; level: number; spans: Span[]; text: string }
  | { type: 'paragraph'; spans: Span[] }
  | { type: 'list'; ordered: boolean; items: ListItem[] }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'table'; header: Span[][]; rows: Span[][][] }
  | { type: 'code'; text: string }
  | { type: 'rule' };

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const BULLET = /^(\s*)([-*+])\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

const isBlank = (line: string) => line.trim() === '';

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    HEADING.test(line) ||
    FENCE.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    (TABLE_ROW.test(line) && next !== undefined && TABLE_SEPARATOR.test(next))
  );
}

/** Cells of `| a | b |`, with `\|` kept as a literal bar. */
function tableCells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < trimmed.length; i += 1) {
    const char = trimmed[i]!;
    if (char === '\\' && trimmed[i + 1] === '|') {
      current += '|';
      i += 1;
    } else if (char === '|') {
      cells.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current.trim());
  return cells;
}

function indentWidth(whitespace: string): number {
  return whitespace.replace(/\t/g, '    ').length;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i += 1;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      const text = heading[2] ?? '';
      blocks.push({ type: 'heading', level: heading[1]!.length, spans: parseInline(text), text });
      i += 1;
      continue;
    }

    if (FENCE.test(line)) {
      const fence = FENCE.exec(line)![1]!;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence)) {
        body.push(lines[i]!);
        i += 1;
      }
      i += 1;
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }

    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        inner.push(QUOTE.exec(lines[i]!)![1] ?? '');
        i += 1;
      }
      blocks.push({ type: 'quote', blocks: parseMarkdown(inner.join('\n')) });
      continue;
    }

    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!)) {
      const header = tableCells(line).map((cell) => parseInline(cell));
      const rows: Span[][][] = [];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i]!)) {
        rows.push(tableCells(lines[i]!).map((cell) => parseInline(cell)));
        i += 1;
      }
      blocks.push({ type: 'table', header, rows });
      continue;
    }

    if (BULLET.test(line) || NUMBERED.test(line)) {
      const ordered = !BULLET.test(line);
      const baseIndent = indentWidth((BULLET.exec(line) ?? NUMBERED.exec(line))![1]!);
      const items: { depth: number; marker: string; text: string }[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const bullet = BULLET.exec(current);
        const numbered = bullet ? null : NUMBERED.exec(current);
        const marker = bullet ?? numbered;
        if (marker) {
          const indent = indentWidth(marker[1]!);
          if (indent < baseIndent) break;
          items.push({
            depth: Math.min(3, Math.floor((indent - baseIndent) / 2)),
            marker: bullet ? '•' : `${numbered![2]}.`,
            text: marker[3] ?? '',
          });
          i += 1;
          continue;
        }
        if (isBlank(current)) {
          // A blank line ends the list unless another item of it follows.
          let next = i + 1;
          while (next < lines.length && isBlank(lines[next]!)) next += 1;
          const following = lines[next];
          const continues =
            following !== undefined &&
            (ordered ? NUMBERED.test(following) : BULLET.test(following)) &&
            indentWidth(/^\s*/.exec(following)![0]) >= baseIndent;
          if (!continues) break;
          i = next;
          continue;
        }
        if (startsBlock(current, lines[i + 1]) && !/^\s{2,}/.test(current)) break;
        // A continuation line of the previous item.
        const last = items[items.length - 1];
        if (last) last.text = `${last.text} ${current.trim()}`;
        i += 1;
      }
      blocks.push({
        type: 'list',
        ordered,
        items: items.map((item) => ({
          depth: item.depth,
          marker: item.marker,
          spans: parseInline(item.text),
        })),
      });
      continue;
    }

    const paragraph: string[] = [];
    while (i < lines.length && !isBlank(lines[i]!)) {
      if (paragraph.length > 0 && startsBlock(lines[i]!, lines[i + 1])) break;
      paragraph.push(lines[i]!.trim());
      i += 1;
    }
    blocks.push({ type: 'paragraph', spans: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!|>~<]/;
const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

interface Style {
  bold?: boolean;
  italic?: boolean;
  href?: string;
}

/** `[text](url)` starting at `start`: its text, URL and end, or null. */
function matchLink(src: string, start: number): { text: string; url: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = start; i < src.length; i += 1) {
    const char = src[i];
    if (char === '\\') {
      i += 1;
      continue;
    }
    if (char === '[') depth += 1;
    else if (char === ']') {
      depth -= 1;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close === -1 || src[close + 1] !== '(') return null;
  let parens = 0;
  for (let i = close + 1; i < src.length; i += 1) {
    const char = src[i];
    if (char === '(') parens += 1;
    else if (char === ')') {
      parens -= 1;
      if (parens === 0) {
        // `(url "title")`: the title is dropped.
        const target = src.slice(close + 2, i).trim();
        const url = (/^<([^>]*)>/.exec(target)?.[1] ?? target.split(/\s+/)[0] ?? '').trim();
        return { text: src.slice(start + 1, close), url, end: i + 1 };
      }
    }
  }
  return null;
}

/** The next `*`/`_` that closes an emphasis opened at `from - 1`. */
function closingEmphasis(src: string, from: number, delimiter: string): number {
  for (let i = from; i < src.length; i += 1) {
    if (src[i] === '\\') {
      i += 1;
      continue;
    }
    if (src[i] !== delimiter) continue;
    if (delimiter === '*' && src[i + 1] === '*') {
      // Skip a nested strong run.
      const end = src.indexOf('**', i + 2);
      if (end === -1) return -1;
      i = end + 1;
      continue;
    }
    if (i === from || /\s/.test(src[i - 1]!)) continue;
    if (delimiter === '_' && isWordChar(src[i + 1])) continue;
    return i;
  }
  return -1;
}

export function parseInline(src: string, style: Style = {}): Span[] {
  const spans: Span[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) spans.push({ text: buffer, ...style });
    buffer = '';
  };
  let i = 0;
  while (i < src.length) {
    const char = src[i]!;
    if (char === '\\' && i + 1 < src.length && ESCAPABLE.test(src[i + 1]!)) {
      buffer += src[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i) {
        flush();
        spans.push({ text: src.slice(i + 1, end), ...style, code: true });
        i = end + 1;
        continue;
      }
    }
    if (char === '[' && style.href === undefined) {
      const link = matchLink(src, i);
      if (link) {
        flush();
        spans.push(...parseInline(link.text, { ...style, href: link.url }));
        i = link.end;
        continue;
      }
    }
    const pair = src.slice(i, i + 2);
    if ((pair === '**' || pair === '__') && !/\s/.test(src[i + 2] ?? ' ')) {
      const end = src.indexOf(pair, i + 2);
      if (end > i + 2) {
        flush();
        spans.push(...parseInline(src.slice(i + 2, end), { ...style, bold: true }));
        i = end + 2;
        continue;
      }
    }
    if (
      (char === '*' || (char === '_' && !isWordChar(src[i - 1]))) &&
      !/\s/.test(src[i + 1] ?? ' ')
    ) {
      const end = closingEmphasis(src, i + 1, char);
      if (end > i + 1) {
        flush();
        spans.push(...parseInline(src.slice(i + 1, end), { ...style, italic: true }));
        i = end + 1;
        continue;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return mergeSpans(spans);
}

function sameStyle(a: Span, b: Span): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.href === b.href;
}

function mergeSpans(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && sameStyle(last, span)) last.text += span.text;
    else merged.push({ ...span });
  }
  return merged;
}

export function spansText(spans: Span[]): string {
  return spans.map((span) => span.text).join('');
}

/** Every block, depth first (a quote's blocks follow it). */
export function walkBlocks(blocks: Block[]): Block[] {
  return blocks.flatMap((block) =>
    block.type === 'quote' ? [block, ...walkBlocks(block.blocks)] : [block],
  );
}

/** Every span of the blocks, table cells and list items included. */
export function allSpans(blocks: Block[]): Span[] {
  return walkBlocks(blocks).flatMap((block) => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        return block.spans;
      case 'list':
        return block.items.flatMap((item) => item.spans);
      case 'table':
        return [...block.header.flat(), ...block.rows.flat(2)];
      default:
        return [];
    }
  });
}

/** The link targets of a piece of Markdown, in order. */
export function linkTargets(blocks: Block[]): string[] {
  const targets: string[] = [];
  let previous: string | undefined;
  for (const span of allSpans(blocks)) {
    if (span.href !== undefined && span.href !== previous) targets.push(span.href);
    previous = span.href;
  }
  return targets;
}

/** Words of running text, as a reader counts them (for reading time). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
