import { describe, expect, it } from 'vitest';
import { countWords, linkTargets, parseInline, parseMarkdown } from './markdown';

describe('parseInline', () => {
  it('reads bold, italic, links and code', () => {
    expect(parseInline('A **bold** and _italic_ [link](/privacy) `x`')).toEqual([
      { text: 'A ' },
      { text: 'bold', bold: true },
      { text: ' and ' },
      { text: 'italic', italic: true },
      { text: ' ' },
      { text: 'link', href: '/privacy' },
      { text: ' ' },
      { text: 'x', code: true },
    ]);
  });

  it('keeps bold inside a link and a link inside bold', () => {
    expect(parseInline('[**Read** this](https://a.example/x_(y))')).toEqual([
      { text: 'Read', bold: true, href: 'https://a.example/x_(y)' },
      { text: ' this', href: 'https://a.example/x_(y)' },
    ]);
    expect(parseInline('**see [the terms](/terms)**')).toEqual([
      { text: 'see ', bold: true },
      { text: 'the terms', bold: true, href: '/terms' },
    ]);
  });

  it('leaves lone markers, snake_case and escapes as text', () => {
    expect(parseInline('5 * 3 and snake_case_word and \\*not\\* and [x]')).toEqual([
      { text: '5 * 3 and snake_case_word and *not* and [x]' },
    ]);
  });
});

describe('parseMarkdown', () => {
  it('reads the blocks the content uses', () => {
    const blocks = parseMarkdown(
      [
        'First paragraph',
        'continues here.',
        '',
        '## A heading',
        '',
        '- one',
        '  more of one',
        '- two',
        '',
        '1. first',
        '2. second',
        '',
        '> quoted **text**',
        '',
        '| Type | From |',
        '| ---- | ---- |',
        '| O−   | O−   |',
        '| A\\|B | all  |',
        '',
        '---',
      ].join('\n'),
    );
    expect(blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'heading',
      'list',
      'list',
      'quote',
      'table',
      'rule',
    ]);
    expect(blocks[0]).toEqual({
      type: 'paragraph',
      spans: [{ text: 'First paragraph continues here.' }],
    });
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [
        { marker: '•', spans: [{ text: 'one more of one' }] },
        { marker: '•', spans: [{ text: 'two' }] },
      ],
    });
    expect(blocks[3]).toMatchObject({ ordered: true, items: [{ marker: '1.' }, { marker: '2.' }] });
    expect(blocks[5]).toMatchObject({
      header: [[{ text: 'Type' }], [{ text: 'From' }]],
      rows: [
        [[{ text: 'O−' }], [{ text: 'O−' }]],
        [[{ text: 'A|B' }], [{ text: 'all' }]],
      ],
    });
  });

  it('lists link targets and counts words', () => {
    const blocks = parseMarkdown(
      'See [a](/articles/x) and [b](https://b.example).\n\n- [c](/terms)',
    );
    expect(linkTargets(blocks)).toEqual(['/articles/x', 'https://b.example', '/terms']);
    expect(countWords('One two, three — 4 and-five')).toBe(5);
  });
});
