import { useTranslation } from 'react-i18next';
import type { BloodRequestTracking } from '@bdms/shared';

/**
 * The WhatsApp share link of a request (issue #16): the tracking link, blood type, hospital and
 * city only. Never a phone number or the patient's name: a forwarded message travels far, and
 * a number in it invites the "send an advance" scams that target families.
 */
export function whatsAppShareUrl(text: string): string {
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}

export function ShareOnWhatsApp({
  tracking,
}: {
  tracking: Pick<BloodRequestTracking, 'trackingCode' | 'bloodType' | 'hospitalName' | 'city'>;
}) {
  const { t } = useTranslation('requests');
  const link = `${window.location.origin}/emergency?track=${encodeURIComponent(tracking.trackingCode)}`;
  const text = t('share.text', {
    bloodType: tracking.bloodType,
    hospital: tracking.hospitalName,
    city: tracking.city,
    link,
  });
  return (
    <a
      href={whatsAppShareUrl(text)}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md bg-[#0b6e4f] px-4 py-2 font-semibold text-white hover:bg-[#095c42] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[#0b6e4f]"
    >
      {t('share.whatsapp')}
      <span className="sr-only"> {t('share.newTab')}</span>
    </a>
  );
}
