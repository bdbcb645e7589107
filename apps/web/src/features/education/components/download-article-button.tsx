import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { useToast } from '../../../components/toast';
import { saveFile } from '../../../lib/save-file';
import { useErrorMessage } from '../../../lib/use-error-message';
import { downloadArticle } from '../api/education';
import { useContentLanguage } from '../lib/content-language';

/** The file name the server gives it too: `<slug>.pdf`. */
export function articleFileName(slug: string): string {
  return `${slug}.pdf`;
}

/**
 * "Download PDF": `POST /content/{id}/download` (the server counts it) and saves the reply. Busy
 * while the PDF is made; a failure is a toast, and the button can be pressed again.
 */
export function DownloadArticleButton({ id, slug }: { id: string; slug: string }) {
  const { t } = useTranslation('education');
  const lang = useContentLanguage();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [isLoading, setIsLoading] = useState(false);

  const download = async () => {
    setIsLoading(true);
    try {
      saveFile(await downloadArticle(id, lang), articleFileName(slug));
      toast.success(t('article.downloaded'));
    } catch (error) {
      toast.error(t('article.downloadFailed', { reason: errorMessage(error) }));
    } finally {
      setIsLoading(false);
    }
  };

  return (
    <Button variant="secondary" isLoading={isLoading} onClick={() => void download()}>
      {!isLoading && <DownloadIcon />}
      {isLoading ? t('article.downloading') : t('article.download')}
    </Button>
  );
}

function DownloadIcon() {
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
      className="size-5"
    >
      <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
    </svg>
  );
}
