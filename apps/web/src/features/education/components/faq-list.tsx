import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FAQ_CATEGORIES, type Faq, type FaqCategory } from '@bdms/shared';
import { ChevronDownIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { useTextLanguage } from '../lib/content-language';
import { FaqFeedback } from './faq-feedback';
import { MarkdownContent } from './markdown';

/** `#faq-<id>` opens that question: a link can point at one answer. */
export function faqAnchor(id: string): string {
  return `faq-${id}`;
}

/** One question: a button that shows or hides its answer (and "Was this helpful?"). */
export function FaqItem({ faq, initiallyOpen = false }: { faq: Faq; initiallyOpen?: boolean }) {
  const [isOpen, setIsOpen] = useState(initiallyOpen);
  const panelId = useId();
  const itemRef = useRef<HTMLLIElement>(null);
  const textLanguage = useTextLanguage(faq.language);
  // Opened by the address (`#faq-<id>`): the list arrived after the browser looked for the anchor.
  useEffect(() => {
    if (initiallyOpen) itemRef.current?.scrollIntoView?.({ block: 'start' });
  }, [initiallyOpen]);
  return (
    <li
      ref={itemRef}
      id={faqAnchor(faq.id)}
      className="scroll-mt-20 border-b border-slate-200 last:border-b-0"
    >
      <h3>
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => setIsOpen((open) => !open)}
          className="flex min-h-11 w-full items-start justify-between gap-4 py-4 text-start text-lg font-semibold text-slate-900 hover:text-primary-800"
        >
          <span {...textLanguage}>{faq.question}</span>
          <ChevronDownIcon
            className={cn(
              'mt-1 size-5 shrink-0 text-slate-600 transition-transform',
              isOpen && 'rotate-180',
            )}
          />
        </button>
      </h3>
      {/* Rendered only when open: 30-odd answers are work a cheap phone need not do up front. */}
      <div id={panelId} hidden={!isOpen} className="pb-5">
        {isOpen && (
          <>
            <MarkdownContent {...textLanguage}>{faq.answer}</MarkdownContent>
            <FaqFeedback faqId={faq.id} />
          </>
        )}
      </div>
    </li>
  );
}

/**
 * The FAQs grouped by category, in FAQ_CATEGORIES order, each group under its name in the
 * visitor's language; categories with no (matching) question are left out.
 */
export function FaqGroups({ faqs, openId }: { faqs: readonly Faq[]; openId?: string }) {
  const groups = FAQ_CATEGORIES.map((category) => ({
    category,
    items: faqs.filter((faq) => faq.category === category),
  })).filter((group) => group.items.length > 0);
  return (
    <div className="flex flex-col gap-8">
      {groups.map((group) => (
        <FaqGroup
          key={group.category}
          category={group.category}
          items={group.items}
          openId={openId}
        />
      ))}
    </div>
  );
}

function FaqGroup({
  category,
  items,
  openId,
}: {
  category: FaqCategory;
  items: readonly Faq[];
  openId: string | undefined;
}) {
  const { t } = useTranslation('education');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        {t(`help.categories.${category}`)}
      </h2>
      <ul className="mt-2 rounded-xl border border-slate-200 bg-white px-4 sm:px-5">
        {items.map((faq) => (
          <FaqItem key={faq.id} faq={faq} initiallyOpen={faq.id === openId} />
        ))}
      </ul>
    </section>
  );
}
