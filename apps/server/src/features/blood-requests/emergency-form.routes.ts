import {
  BLOOD_REQUEST_LIMITS,
  MESSAGE_LANGUAGES,
  REQUEST_LANGUAGES,
  createBloodRequestSchema,
  type CreateBloodRequest,
  type MessageLanguage,
} from '@bdms/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../lib/app-error';
import { requestMeta } from '../../lib/request-context';
import type { BloodRequestsService } from './blood-requests.service';
import { BLOOD_REQUEST_RATE_LIMITS } from './blood-requests.routes';
import { EMERGENCY_FORM_TEXT } from './emergency-form.text';

/**
 * `POST /emergency`: the emergency form of the prerendered page, sent by the browser itself
 * before the app's script has arrived (issue #18: on Slow 3G with a 4× slower CPU the script
 * makes the form usable only after ~18 s). It makes the same request as `POST
 * /api/v1/blood-requests` for a guest (same service, same limits, same duplicate guard), then
 * sends the browser to the tracking page (303). Anything that stops it is a short page in the
 * form's language that says why, with the emergency numbers and the way back.
 *
 * Only from this site's own pages (issue #32 item 8): it needs no sign-in, but every request
 * sends a code by SMS (money), so a form on another website must not be able to make its
 * visitors' browsers send requests from their many addresses, past the per-address limits. See
 * `isSameSiteForm` for how, and why not a form token.
 */

/** The form's field names (apps/web/src/features/blood-requests/components/request-form.tsx). */
type FormBody = Record<string, string | string[] | undefined>;

const BODY_LIMIT = 16 * 1024;

/** The first value of a field, trimmed; empty is absent. */
function field(body: FormBody, name: string): string | undefined {
  const raw = body[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

/**
 * `<input type="datetime-local">` gives a wall-clock time without a zone. The form is for
 * requests in India, so it is read as Indian time (UTC+05:30, no daylight saving).
 */
export function indianWallClockToIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(value);
  if (!match) return value; // Left as typed: the schema says what is wrong with it.
  const time = Date.parse(`${match[1]}T${match[2]}${match[3] ?? ':00'}+05:30`);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/** The request the form describes, in the API's shape (validated by the caller). */
export function formToRequest(body: FormBody): Record<string, unknown> {
  const units = field(body, 'unitsNeeded');
  const language = field(body, 'language');
  return {
    bloodType: field(body, 'bloodType'),
    unitsNeeded: units === undefined ? BLOOD_REQUEST_LIMITS.minUnits : Number(units),
    urgency: field(body, 'urgency'),
    patientName: field(body, 'patientName'),
    hospitalName: field(body, 'hospitalName'),
    facilityId: field(body, 'facilityId'),
    city: field(body, 'city'),
    state: field(body, 'state'),
    contactName: field(body, 'contactName'),
    contactPhone: field(body, 'contactPhone'),
    requiredBy: indianWallClockToIso(field(body, 'requiredBy')),
    notes: field(body, 'notes'),
    language:
      language && (REQUEST_LANGUAGES as readonly string[]).includes(language)
        ? language
        : undefined,
  };
}

function messageLanguage(value: unknown): MessageLanguage {
  return (MESSAGE_LANGUAGES as readonly unknown[]).includes(value)
    ? (value as MessageLanguage)
    : 'en';
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

type Problem = 'invalid' | 'tooMany' | 'duplicateElsewhere' | 'failed' | 'otherSite';

/**
 * Whether the form was sent by a page of this site (PUBLIC_URL's origin). What a browser says of
 * where a form comes from, and which a page cannot change: `Sec-Fetch-Site` (Fetch Metadata,
 * every current browser) when present, it alone decides (`same-origin` only: a subdomain is
 * another site); else `Origin` (sent with every form POST since 2020, also by Safari and
 * Firefox); else `Referer` (the page's address: the site's Referrer-Policy,
 * strict-origin-when-cross-origin, keeps it for same-origin posts). With none of them, refused:
 * it is not a browser sending the page's form (scripts and apps use POST /api/v1/blood-requests).
 * Chosen over a one-time form token: the prerendered page is a static, cached file (a token would
 * need a render per visit), a token works on a page that was opened hours before only if it lives
 * that long, and a site that wants tokens can fetch them from the server as easily as a visitor;
 * the browser's own headers cannot be set by another site's page at all.
 */
export function isSameSiteForm(
  headers: Record<string, string | string[] | undefined>,
  publicUrl: string,
): boolean {
  const one = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim();
  };
  const expected = new URL(publicUrl).origin;
  const fetchSite = one('sec-fetch-site');
  if (fetchSite) return fetchSite === 'same-origin';
  const origin = one('origin');
  if (origin) return origin === expected;
  const referer = one('referer');
  if (!referer) return false;
  try {
    return new URL(referer).origin === expected;
  } catch {
    return false;
  }
}

/** A small page of its own (no script, no style sheet to wait for): what happened, what to do. */
function problemPage(language: MessageLanguage, problem: Problem, minutes = 0): string {
  const text = EMERGENCY_FORM_TEXT[language];
  const message =
    problem === 'tooMany'
      ? text.tooMany.replace('{minutes}', String(minutes))
      : problem === 'duplicateElsewhere'
        ? text.duplicateElsewhere
        : problem === 'invalid'
          ? text.invalid
          : problem === 'otherSite'
            ? text.otherSite
            : text.failed;
  const call = escapeHtml(text.call)
    .replace('108', '<a href="tel:108">108</a>')
    .replace('112', '<a href="tel:112">112</a>');
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(problem === 'duplicateElsewhere' ? text.duplicateTitle : text.title)}</title>
</head>
<body style="font-family:system-ui,sans-serif;font-size:18px;line-height:1.5;max-width:36rem;margin:0 auto;padding:1rem;color:#0f172a">
<main>
<h1 style="font-size:1.5rem;color:#b91c1c">${escapeHtml(problem === 'duplicateElsewhere' ? text.duplicateTitle : text.title)}</h1>
<p>${escapeHtml(message)}</p>
<p><strong>${call}</strong></p>
<p><a href="/emergency" style="display:inline-block;padding:.75rem 1rem;background:#b91c1c;color:#fff;border-radius:.5rem;text-decoration:none">${escapeHtml(text.back)}</a></p>
</main>
</body>
</html>`;
}

function sendProblem(
  reply: FastifyReply,
  status: number,
  language: MessageLanguage,
  problem: Problem,
  minutes?: number,
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(problemPage(language, problem, minutes));
}

export interface EmergencyFormRoutesOptions {
  bloodRequests: BloodRequestsService;
  /** PUBLIC_URL: the only origin whose pages may send the form. */
  publicUrl: string;
}

/**
 * Registered in a scope of its own: only this route reads form bodies
 * (application/x-www-form-urlencoded); the API keeps taking JSON alone.
 */
export async function emergencyFormRoutes(
  app: FastifyInstance,
  { bloodRequests, publicUrl }: EmergencyFormRoutesOptions,
) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => {
      const form: FormBody = {};
      for (const [key, value] of new URLSearchParams(String(body))) {
        const previous = form[key];
        form[key] =
          previous === undefined
            ? value
            : [...(Array.isArray(previous) ? previous : [previous]), value];
      }
      done(null, form);
    },
  );

  app.setErrorHandler((error, request, reply) => answerError(error, request, reply));

  app.post(
    '/emergency',
    {
      bodyLimit: BODY_LIMIT,
      config: {
        rateLimit: {
          ...BLOOD_REQUEST_RATE_LIMITS.create,
          // Replaces the global allow list, so RATE_LIMIT_ALLOWLIST is asked here as well.
          // The address itself: the key is its /64 for IPv6 (lib/client-address.ts).
          allowList: (request: FastifyRequest) => app.isRateLimitExempt(request.ip),
        },
      },
      schema: {
        // Not in the published API (a browser's form post, answered with pages), described all
        // the same for whoever reads the route table.
        hide: true,
        description:
          'The no-JavaScript emergency form: the same guest request as POST /api/v1/blood-requests, then 303 to ' +
          "its tracking page. Accepted only from this site's own pages (issue #32 item 8: each request sends a code " +
          'by SMS or WhatsApp, so another website must not make its visitors send requests): `Sec-Fetch-Site: same-origin` ' +
          "when the browser sends that header, else `Origin` equal to PUBLIC_URL's origin, else a `Referer` on " +
          "it; otherwise 403 with a page in the form's language, before anything is made or counted. The " +
          "browser's own headers were chosen over a one-time form token: another site's page cannot set them, " +
          'while the prerendered page is a static cached file (a token needs a render per visit) and a token can ' +
          'be fetched by anyone. Scripts and apps use the JSON API.',
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as FormBody;
      const language = messageLanguage(field(body, 'language'));
      // Before anything is made or counted: another site's form sends no SMS (issue #32 item 8).
      if (!isSameSiteForm(request.headers, publicUrl)) {
        return sendProblem(reply, 403, language, 'otherSite');
      }
      const parsed = createBloodRequestSchema.safeParse(formToRequest(body));
      if (!parsed.success) return sendProblem(reply, 400, language, 'invalid');
      try {
        // Always a guest's request: a browser posting a form sends no bearer token.
        const { result } = await bloodRequests.create(
          null,
          parsed.data satisfies CreateBloodRequest,
          requestMeta(request),
        );
        if (!result.request) return sendProblem(reply, 200, language, 'duplicateElsewhere');
        const params = new URLSearchParams({ track: result.request.trackingCode, sent: '1' });
        if (result.duplicate) params.set('duplicate', '1');
        return reply.code(303).header('location', `/emergency?${params}`).send();
      } catch (error) {
        return answerError(error, request, reply);
      }
    },
  );
}

/** Every failure of the form's route (the limits' too) as a page: never a JSON envelope. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const language = messageLanguage(field((request.body ?? {}) as FormBody, 'language'));
  if (isAppError(error) && error.code === 'RATE_LIMITED') {
    const seconds = Number(error.headers?.['retry-after']) || 3600;
    reply.header('retry-after', String(seconds));
    return sendProblem(reply, 429, language, 'tooMany', Math.max(1, Math.ceil(seconds / 60)));
  }
  if (isAppError(error) && error.statusCode < 500) {
    return sendProblem(reply, 400, language, 'invalid');
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own: a body too large (413), of a type the form never sends (415), unreadable.
    return sendProblem(reply, status === 413 || status === 415 ? status : 400, language, 'invalid');
  }
  request.log.error({ err: error }, 'emergency form: the request could not be made');
  return sendProblem(reply, 500, language, 'failed');
}
