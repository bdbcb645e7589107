import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportDonors } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { exportDonors } from '../../api/admin-api';
import { saveFile } from '../../../../lib/save-file';
import { fileNameFromDisposition } from '../../lib/download';

/** The name the server gives; the same pattern, dated today (UTC), if it gives none. */
function fallbackName(): string {
  return `donors-export-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** `POST /admin/export/donors` with the filters on screen; the CSV is saved under the server's name. */
export function ExportButton({ filters }: { filters: ExportDonors }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [isExporting, setIsExporting] = useState(false);

  const run = async () => {
    setIsExporting(true);
    try {
      const file = await exportDonors(filters);
      const name =
        fileNameFromDisposition(file.headers.get('Content-Disposition')) ?? fallbackName();
      saveFile(file.blob, name);
      toast.success(t('verification.export.done', { name }));
    } catch (error) {
      toast.error(t('verification.export.failed'), { message: errorMessage(error) });
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <Button variant="secondary" onClick={() => void run()} isLoading={isExporting}>
      {t('verification.export.button')}
    </Button>
  );
}
