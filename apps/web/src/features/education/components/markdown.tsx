import type { ComponentProps, ElementType, JSX } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import Markdown, { defaultUrlTransform, type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cn } from '../../../lib/cn';

/**
 * Renders the content's Markdown (articles, FAQ answers, the privacy and terms pages) safely:
 * raw HTML is dropped (`skipHtml`, and no rehype-raw), URLs pass react-markdown's
 * `defaultUrlTransform` (relative paths, http(s) and mailto survive; `javascript:`, `data:`,
 * `vbscript:` and other schemes become empty, and such a link renders as its words only), and
 * images are not rendered at all (the content has none, and a remote image would be a tracker).
 */

type LinkKind = 'none' | 'internal' | 'external' | 'plain';

/** What a (transformed) href is: a path of this app, another site, or nothing safe. */
export function linkKind(href: string | undefined): LinkKind {
  if (!href) return 'none';
  if (href.startsWith('/') && !href.startsWith('//')) return 'internal';
  if (/^https?:\/\//i.test(href) || href.startsWith('//')) return 'external';
  return 'plain';
}

const LINK_CLASS =
  'font-medium text-primary-700 underline decoration-1 hover:text-primary-900 hover:decoration-2';

function MarkdownLink({ href, children, node: _node, ...props }: ComponentProps<'a'> & ExtraProps) {
  const { t } = useTranslation('education');
  const kind = linkKind(href);
  // A neutralised URL (javascript:, data:...) keeps its words and loses the link.
  if (kind === 'none' || !href) return <span>{children}</span>;
  if (kind === 'internal') {
    return (
      <Link to={href} className={LINK_CLASS}>
        {children}
      </Link>
    );
  }
  if (kind === 'external') {
    return (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer" className={LINK_CLASS}>
        {children}
        <ExternalIcon /> <span className="sr-only">{t('markdown.opensInNewTab')}</span>
      </a>
    );
  }
  return (
    <a {...props} href={href} className={LINK_CLASS}>
      {children}
    </a>
  );
}

function ExternalIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="ms-0.5 inline size-[0.85em] align-baseline"
    >
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}

/** Wide tables scroll sideways inside their own box (a phone is 360 px wide), reachable by keyboard. */
function MarkdownTable({ node: _node, className, ...props }: ComponentProps<'table'> & ExtraProps) {
  const { t } = useTranslation('education');
  return (
    <div
      role="group"
      aria-label={t('markdown.table')}
      // Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable).
      tabIndex={0}
      className="my-6 max-w-full overflow-x-auto rounded-lg border border-slate-300"
    >
      <table className={cn('w-full border-collapse text-start text-base', className)} {...props} />
    </div>
  );
}

/** Strips react-markdown's `node` prop and applies the element's prose classes. */
function styled<Tag extends keyof JSX.IntrinsicElements>(Tag: Tag, className: string) {
  function Styled({ node: _node, className: own, ...props }: ComponentProps<Tag> & ExtraProps) {
    const Element = Tag as ElementType;
    return <Element className={cn(className, own as string | undefined)} {...props} />;
  }
  Styled.displayName = `Markdown.${Tag}`;
  return Styled;
}

const H2 =
  'mt-10 mb-3 scroll-mt-20 text-2xl leading-tight font-bold tracking-tight text-slate-900 sm:text-[1.75rem]';
const H3 = 'mt-8 mb-2 scroll-mt-20 text-xl leading-snug font-semibold text-slate-900';

/**
 * The page shows the title as its only h1, so a stray `#` in the content becomes an h2; `####`
 * and deeper read as h4.
 */
const COMPONENTS: Components = {
  a: MarkdownLink,
  table: MarkdownTable,
  h1: styled('h2', H2),
  h2: styled('h2', H2),
  h3: styled('h3', H3),
  h4: styled('h4', 'mt-6 mb-2 text-lg font-semibold text-slate-900'),
  h5: styled('h4', 'mt-6 mb-2 text-lg font-semibold text-slate-900'),
  h6: styled('h4', 'mt-6 mb-2 text-lg font-semibold text-slate-900'),
  p: styled('p', 'my-4'),
  ul: styled('ul', 'my-4 list-disc space-y-2 ps-6 marker:text-slate-500'),
  ol: styled('ol', 'my-4 list-decimal space-y-2 ps-6 marker:font-semibold marker:text-slate-600'),
  li: styled('li', 'ps-1 [&>ol]:my-2 [&>ul]:my-2'),
  blockquote: styled(
    'blockquote',
    'my-6 rounded-e-lg border-s-4 border-primary-200 bg-slate-50 px-4 py-1 text-slate-800',
  ),
  strong: styled('strong', 'font-semibold text-slate-900'),
  hr: styled('hr', 'my-8 border-slate-200'),
  code: styled('code', 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] text-slate-900'),
  pre: styled('pre', 'my-6 overflow-x-auto rounded-lg bg-slate-100 p-4 text-sm'),
  thead: styled('thead', 'bg-slate-50'),
  th: styled(
    'th',
    'border-b-2 border-slate-300 px-3 py-2 text-start align-bottom font-semibold text-slate-900',
  ),
  td: styled('td', 'border-t border-slate-200 px-3 py-2 align-top text-slate-800'),
};

const REMARK_PLUGINS = [remarkGfm];
/** No images (none in the content; a remote one would track readers), no form controls (task lists). */
const DISALLOWED_ELEMENTS = ['img', 'input'];

export interface MarkdownContentProps {
  children: string;
  className?: string;
  /** The language of the text (the entry's `language`). */
  lang?: string;
  /** `auto` for text in another language than the page's (see lib/content-language.ts). */
  dir?: 'auto';
}

/** Markdown as readable prose: one column of about 65 characters, headings from h2 down. */
export function MarkdownContent({ children, className, lang, dir }: MarkdownContentProps) {
  return (
    <div
      lang={lang}
      dir={dir}
      className={cn(
        'max-w-prose text-base leading-relaxed text-slate-800 sm:text-lg [&>:first-child]:mt-0 [&>:last-child]:mb-0',
        className,
      )}
    >
      <Markdown
        remarkPlugins={REMARK_PLUGINS}
        components={COMPONENTS}
        skipHtml
        disallowedElements={DISALLOWED_ELEMENTS}
        urlTransform={defaultUrlTransform}
      >
        {children}
      </Markdown>
    </div>
  );
}
