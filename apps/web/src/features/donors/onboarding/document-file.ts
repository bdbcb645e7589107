import { DOCUMENT_MAX_BYTES, DOCUMENT_MIME_TYPES, type DocumentType } from '@bdms/shared';

/** The documents onboarding asks for, in order (API.md "Documents"; address proof is not asked). */
export const ONBOARDING_DOCUMENTS = [
  'id_proof',
  'photo',
  'medical_certificate',
] as const satisfies readonly DocumentType[];
export type OnboardingDocument = (typeof ONBOARDING_DOCUMENTS)[number];

/** What the file input offers; the server decides by content, not by name. */
export const DOCUMENT_ACCEPT = [
  ...DOCUMENT_MIME_TYPES,
  '.pdf',
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
].join(',');

const EXTENSIONS = /\.(pdf|jpe?g|png|webp)$/i;

export type FileProblem =
  { kind: 'tooLarge'; sizeMb: number } | { kind: 'type' } | { kind: 'empty' };

/**
 * Checks a chosen file before sending it, so a donor on a slow network does not wait for a
 * refusal: at most 5 MB, and PDF, JPEG, PNG or WebP (by its type, or its name when the phone
 * gives no type).
 */
export function checkDocumentFile(file: Pick<File, 'name' | 'size' | 'type'>): FileProblem | null {
  const isKnownType = file.type
    ? (DOCUMENT_MIME_TYPES as readonly string[]).includes(file.type)
    : EXTENSIONS.test(file.name);
  if (!isKnownType) return { kind: 'type' };
  if (file.size === 0) return { kind: 'empty' };
  if (file.size > DOCUMENT_MAX_BYTES) {
    return { kind: 'tooLarge', sizeMb: Math.round((file.size / 1024 / 1024) * 10) / 10 };
  }
  return null;
}
