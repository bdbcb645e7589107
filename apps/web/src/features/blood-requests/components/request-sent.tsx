import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { CheckCircleIcon } from '../../../components/icons';

/**
 * Right after a request is sent (by the app, or by the browser before the app arrived): the
 * tracking code, large, with Copy and Share, and focus on the heading so that keyboard and
 * screen-reader users hear that it worked (issue #18).
 */
export function RequestSent({ code }: { code: string }) {
  const { t } = useTranslation('requests');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [note, setNote] = useState('');
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const link = `${window.location.origin}/emergency?track=${encodeURIComponent(code)}`;
  const copy = (text: string, done: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setNote(done),
      () => setNote(''),
    );
  };
  const share = () => {
    const text = t('sent.shareText', { code });
    if (typeof navigator.share === 'function') {
      navigator.share({ title: t('sent.title'), text, url: link }).catch(() => {
        // Closed without sharing: nothing to say.
      });
    } else {
      copy(`${text} ${link}`, t('sent.linkCopied'));
    }
  };

  return (
    <section
      aria-labelledby="request-sent-heading"
      className="flex flex-col gap-4 rounded-lg border-2 border-success-700 bg-success-50 p-5"
    >
      <h2
        id="request-sent-heading"
        ref={headingRef}
        tabIndex={-1}
        className="flex items-center gap-2 text-2xl font-bold text-slate-900 outline-none"
      >
        <CheckCircleIcon className="size-7 shrink-0 text-success-700" />
        {t('sent.title')}
      </h2>
      <div>
        <p className="text-slate-800">{t('sent.codeLabel')}</p>
        <p
          className="font-mono text-4xl font-bold tracking-widest break-all text-slate-900"
          data-testid="tracking-code"
        >
          {code}
        </p>
      </div>
      <p className="text-slate-800">{t('sent.keep')}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="secondary" onClick={() => copy(code, t('tracking.copied'))}>
          {t('tracking.copy')}
        </Button>
        <Button type="button" variant="secondary" onClick={share}>
          {t('sent.share')}
        </Button>
        <span aria-live="polite" className="text-sm font-medium text-success-800">
          {note}
        </span>
      </div>
    </section>
  );
}
