import {
  certificateNumberParamsSchema,
  certificateVerificationSchema,
  idParamsSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/content-disposition';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser } from '../../plugins/auth';
import type { CertificatesService } from './certificates.service';

const BEARER = [{ bearerAuth: [] }];

/** Public and guessable by design, so kept slow: 30 checks a minute per address. */
export const CERTIFICATE_VERIFY_RATE_LIMIT = { max: 30, timeWindow: '1 minute' } as const;

export interface CertificatesRoutesOptions {
  certificates: CertificatesService;
}

export const certificatesRoutes: FastifyPluginAsyncZod<CertificatesRoutesOptions> = async (
  app,
  { certificates },
) => {
  app.get(
    '/api/v1/donations/:id/certificate',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['certificates'],
        summary: 'Certificate of a donation (PDF)',
        description:
          'The donor or an administrator (others 403; unknown 404). `application/pdf`, generated on request with ' +
          "pdfkit (A4 landscape): the foundation's name, the donor's full name, date, place, blood type, the " +
          'certificate number and its public verification URL. Only verified donations have one: an unverified ' +
          "donation is 409 `CONFLICT`. The certificate is in the **donor's** language (`users.language`: en, es, hi, " +
          'and bn, mr, te, ta; others print in English) whoever downloads it, the date being the day in India. ' +
          'Text is set in embedded Noto fonts and shaped (OpenType), so names and places in Latin, Devanagari, ' +
          'Bengali, Tamil, Telugu or Arabic script print correctly; each line carries its text (`/ActualText`) for ' +
          'copying and screen readers.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: z.unknown().describe('The certificate, application/pdf'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { pdf, certificateNumber } = await certificates.certificatePdf(
        currentUser(request),
        request.params.id,
      );
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          attachmentDisposition(`certificate-${certificateNumber}.pdf`),
        )
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.get(
    '/api/v1/certificates/:number',
    {
      config: { rateLimit: CERTIFICATE_VERIFY_RATE_LIMIT },
      schema: {
        tags: ['certificates'],
        summary: 'Verify a certificate (public)',
        description:
          'Anyone (the URL printed on the certificate). `valid: false` with nulls for an unknown number. For a valid ' +
          "one: the donor's first name and last initial only, the date (YYYY-MM-DD), place and blood type; never " +
          `contact details. Rate limit: ${CERTIFICATE_VERIFY_RATE_LIMIT.max} per minute per address.`,
        params: certificateNumberParamsSchema,
        response: {
          200: successEnvelope(certificateVerificationSchema),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await certificates.verify(request.params.number),
    }),
  );
};
