import { indianDate, type CertificateVerification } from '@bdms/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { AuthUser } from '../../plugins/auth';
import { renderCertificatePdf } from './certificate-pdf';
import { createCertificatesRepository } from './certificates.repository';

export interface CertificatesServiceDeps {
  db: Db;
  config: { publicUrl: string };
}

/** "Asha Verma" → "Asha V.": enough to match a person in front of you, not to find them. */
export function shortName(fullName: string | null): string | null {
  if (!fullName) return null;
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  const [first, ...rest] = parts;
  const last = rest.at(-1);
  return last ? `${first} ${Array.from(last)[0]!.toUpperCase()}.` : first!;
}

export function verificationUrl(publicUrl: string, number: string): string {
  return `${publicUrl}/api/v1/certificates/${encodeURIComponent(number)}`;
}

export function createCertificatesService(deps: CertificatesServiceDeps) {
  const repository = createCertificatesRepository(deps.db);

  return {
    /** The PDF of a verified donation, in the donor's language: its donor or an administrator. */
    async certificatePdf(
      caller: AuthUser,
      donationId: string,
    ): Promise<{ pdf: Uint8Array; certificateNumber: string }> {
      const row = await repository.findDonation(donationId);
      if (!row) throw new AppError('NOT_FOUND', 'There is no donation with this id.');
      if (row.donorId !== caller.id && caller.role !== 'admin') {
        throw new AppError('FORBIDDEN', 'You can only download your own certificates.');
      }
      if (!row.verified || !row.certificateNumber) {
        throw new AppError(
          'CONFLICT',
          'A certificate is issued once a blood centre or hospital has verified the donation.',
        );
      }
      const pdf = await renderCertificatePdf({
        donorName: row.donorName && !row.donorDeletedAt ? row.donorName : null,
        donatedAt: row.donatedAt,
        place: row.place,
        bloodType: row.bloodType,
        units: row.units,
        certificateNumber: row.certificateNumber,
        verificationUrl: verificationUrl(deps.config.publicUrl, row.certificateNumber),
        // The certificate is the donor's, so it is in their language whoever downloads it.
        language: row.donorDeletedAt ? null : row.donorLanguage,
      });
      return { pdf, certificateNumber: row.certificateNumber };
    },

    /** Public: is this certificate genuine? Only a shortened name, never contact details. */
    async verify(number: string): Promise<CertificateVerification> {
      const normalized = number.trim().toUpperCase();
      const row = await repository.findByCertificateNumber(normalized);
      if (!row || !row.verified) {
        return {
          valid: false,
          certificateNumber: normalized,
          donorName: null,
          donatedAt: null,
          place: null,
          bloodType: null,
        };
      }
      return {
        valid: true,
        certificateNumber: normalized,
        donorName: row.donorDeletedAt ? null : shortName(row.donorName),
        // The Indian day (issue #32 item 3): a donation at 00:30 IST is not the day before.
        donatedAt: indianDate(row.donatedAt),
        place: row.place,
        bloodType: row.bloodType,
      };
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
