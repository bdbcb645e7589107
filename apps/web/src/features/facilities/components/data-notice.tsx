import { useTranslation } from 'react-i18next';
import { FACILITY_DATA } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { TaggedText } from '../../../components/tagged-text';

const LINK = 'font-semibold underline underline-offset-2';

/** The source, its licence (linked) and where PIN code locations come from. */
export function DataAttribution({ className }: { className?: string }) {
  const { t } = useTranslation('facilities');
  return (
    <p className={className}>
      <TaggedText
        text={t('notice.attribution', {
          source: FACILITY_DATA.sourceName,
          licence: FACILITY_DATA.licence,
          pincodes: FACILITY_DATA.pincodeSource,
        })}
        tags={{
          source: (text) => (
            <a href={FACILITY_DATA.sourceUrl} className={LINK} rel="noopener noreferrer">
              {text}
            </a>
          ),
          licence: (text) => (
            <a href={FACILITY_DATA.licenceUrl} className={LINK} rel="noopener noreferrer">
              {text}
            </a>
          ),
        }}
      />
    </p>
  );
}

/**
 * Where the directory comes from and how old it is: always shown with facility data, since a
 * number that has changed since 2018 costs time in an emergency. `withSource: false` leaves the
 * attribution out (a page that shows it at its foot, to keep its call buttons near the top).
 */
export function DataNotice({
  className,
  withSource = true,
}: {
  className?: string;
  withSource?: boolean;
}) {
  const { t } = useTranslation('facilities');
  const date = t('facilityDataDate', { ns: 'common' });
  return (
    <Alert
      variant="info"
      dismissible={false}
      className={className}
      title={t('notice.title', { date })}
      message={t('notice.verify')}
    >
      {withSource && <DataAttribution className="mt-2 text-sm" />}
    </Alert>
  );
}
