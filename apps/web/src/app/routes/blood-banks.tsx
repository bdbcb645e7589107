import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useFeatureFlag } from '../../config/use-config';
import { FacilityDirectory, StockFinder } from '../../features/facilities';

/** /blood-banks: the public directory of blood banks (features/facilities). */
export default function BloodBanksPage() {
  const { t } = useTranslation('pages');
  const showStock = useFeatureFlag('inventoryManagement');
  return (
    <Page
      title={t('bloodBanks.title')}
      description={t('bloodBanks.description')}
      lead={t('bloodBanks.intro')}
    >
      {showStock && (
        <div className="mt-6 max-w-4xl">
          <StockFinder />
        </div>
      )}
      <FacilityDirectory />
    </Page>
  );
}
