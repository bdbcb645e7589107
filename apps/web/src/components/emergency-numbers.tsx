import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * India's emergency numbers: 108 (ambulance, most states) and 112 (the single emergency number,
 * ERSS). Written in Latin digits or in the digits of the scripts the app is translated into.
 */
const DIGITS: readonly string[] = [
  '0123456789',
  '०१२३४५६७८९', // Devanagari (hi, mr)
  '০১২৩৪৫৬৭৮৯', // Bengali
  '౦౧౨౩౪౫౬౭౮౯', // Telugu
  '௦௧௨௩௪௫௬௭௮௯', // Tamil
];
const NUMBERS = ['108', '112'] as const;
type EmergencyNumber = (typeof NUMBERS)[number];

const SPELLINGS = new Map<string, EmergencyNumber>(
  NUMBERS.flatMap((number) =>
    DIGITS.map(
      (digits) => [[...number].map((digit) => digits[Number(digit)]).join(''), number] as const,
    ),
  ),
);
// Not part of a longer number (1080, 21120): no digit of any of these scripts on either side.
const ANY_DIGIT = `[${DIGITS.join('')}]`;
const PATTERN = new RegExp(
  `(?<!${ANY_DIGIT})(${[...SPELLINGS.keys()].join('|')})(?!${ANY_DIGIT})`,
  'gu',
);

/**
 * A translated text in which every 108 and 112 is a tap-to-call link with a spoken label, so a
 * reader in an emergency calls with one tap. The translation stays plain text (no markup for
 * translators to keep).
 */
export function EmergencyNumbersText({ text }: { text: string }): ReactNode {
  const { t } = useTranslation();
  const parts = text.split(PATTERN);
  return parts.map((part, index) => {
    const number = index % 2 === 1 ? SPELLINGS.get(part) : undefined;
    if (!number) return <Fragment key={index}>{part}</Fragment>;
    return (
      <a
        key={index}
        href={`tel:${number}`}
        aria-label={t(`emergencyNumbers.label${number}`)}
        className="font-semibold underline"
      >
        {part}
      </a>
    );
  });
}
