import { useTranslation } from 'react-i18next';
import { useConfig } from '../../config/use-config';

/**
 * "Demo data" on every page while the database holds demo records (the `mockData` flag seeded
 * them; the server's config says so). Not dismissible: whoever looks at a screen, or a
 * screenshot of it, must know that the donors and requests on it are made up. A status region,
 * so a screen reader announces it once, politely.
 */
export function DemoDataBanner() {
  const { t } = useTranslation();
  const { config } = useConfig();
  if (!config?.demoData) return null;
  return (
    <div
      role="status"
      aria-labelledby="demo-data-banner-title"
      className="border-b-2 border-warning-700 bg-warning-50 px-4 py-2 text-center text-sm text-warning-800"
    >
      <strong id="demo-data-banner-title" className="mr-2 font-bold uppercase tracking-wide">
        {t('demoData.title')}
      </strong>
      <span>{t('demoData.message')}</span>
    </div>
  );
}
