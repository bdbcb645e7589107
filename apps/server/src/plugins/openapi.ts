import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_NAME, ERROR_CODES } from '@bdms/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DEFAULT_SUPPORT_EMAIL } from '../config/env';
import {
  ACTIVE_CONTENT_MESSAGE,
  DISK_FULL_MESSAGE,
  UNSUPPORTED_FILE_MESSAGE,
} from '../features/documents/documents.service';
import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-handler';

export const DOCS_PREFIX = '/api/docs';

export const OPENAPI_TAGS = [
  { name: 'health', description: 'Probes for load balancers and orchestrators.' },
  {
    name: 'config',
    description:
      'Public settings the web app reads at start: feature flags, support address, push key.',
  },
  {
    name: 'auth',
    description:
      'Registration, sign-in (password or e-mailed code), sessions, password reset and availability checks.',
  },
  {
    name: 'users',
    description:
      'A user’s own account (or any account, for administrators): profile, activity, data export and erasure.',
  },
  {
    name: 'donors',
    description:
      'The donor’s journey: health questionnaire and eligibility, onboarding, availability.',
  },
  { name: 'documents', description: 'Identity and other documents, uploaded and verified.' },
  {
    name: 'donations',
    description: 'Donations reported by donors or recorded by hospitals, and totals.',
  },
  {
    name: 'certificates',
    description: 'Donation certificates (PDF) and their public verification.',
  },
  { name: 'notifications', description: 'In-app notifications and web push subscriptions.' },
  {
    name: 'blood-requests',
    description:
      'Emergency blood requests (guests too), verification, matching of compatible donors nearby, ' +
      'privacy-protected contact, tracking and the hospital’s actions.',
  },
  {
    name: 'facilities',
    description:
      'The public blood bank directory (Government of India data, 2018): search, details, nearby, directory.',
  },
  {
    name: 'blood-stock',
    description:
      'What blood centres hold per blood group and component, with its age: public reads and the availability ' +
      'search, updates by the centre’s own verified accounts, history.',
  },
  {
    name: 'admin',
    description:
      'The administrators’ console: donor verification and status, lists, statistics, details (access logged), ' +
      'questionnaire review, CSV export, activity, e-mail, notification settings and feature flags.',
  },
  { name: 'hospitals', description: 'Hospital accounts, created and disabled by administrators.' },
  { name: 'analytics', description: 'Dashboard figures for administrators.' },
  {
    name: 'referrals',
    description:
      'Invitations (feature flag referralSystem): a donor’s code and counts, and the administrators’ view.',
  },
  {
    name: 'reports',
    description:
      'The monthly report for administrators (feature flag analyticsReporting): on screen, CSV, PDF, e-mailed on the 1st.',
  },
  {
    name: 'education',
    description:
      'Public education articles (also as PDF), their categories, and the help centre’s FAQs with feedback.',
  },
  { name: 'pages', description: 'The privacy policy and the terms of service.' },
  { name: 'contact', description: 'The contact form, e-mailed to the support address.' },
  {
    name: 'client-logs',
    description:
      'Extension: the web app sends its errors, warnings and slow web vitals here (rate-limited); administrators read them.',
  },
  {
    name: 'site',
    description: 'Extension: public figures for the home page (counts only, nothing identifying).',
  },
];

function errorCodeTable(): string {
  return Object.entries(ERROR_CODES)
    .map(([code, status]) => `| \`${code}\` | ${status} |`)
    .join('\n');
}

export function apiDescription(): string {
  return `The API of the ${APP_NAME}: blood donors, people who need blood, hospitals and administrators in India.

## Envelope
Every JSON reply is an envelope:
- success: \`{"success": true, "data": …}\`
- failure: \`{"success": false, "error": {"message": "human text", "code": "MACHINE_CODE", "details": …}}\`

\`details\` is optional; for \`VALIDATION_ERROR\` it lists \`[{"path": "body.email", "message": "…"}]\`
(paths start with \`body\`, \`query\`, \`params\` or \`headers\`). A 5xx never carries a stack trace or SQL.
Malformed JSON is a 400 \`BAD_REQUEST\`; bodies are limited to 1 MiB unless a route says otherwise.

## Error codes
| code | HTTP status |
|---|---|
${errorCodeTable()}

Decisions on errors every route may give:
- **Database outage**: while the database is unreachable or restarting, or when it drops the connection under a
  request (SQLSTATE class 08, 57P01–57P03, a refused or reset connection), the reply is 503 \`SERVICE_UNAVAILABLE\`
  with \`Retry-After: ${UNAVAILABLE_RETRY_AFTER_SECONDS}\` and the message "${UNAVAILABLE_MESSAGE}", never a 500: the
  same request may succeed a moment later. A transaction cut off that way is rolled back whole, and the server serves
  again once the database is back, without a restart. \`GET /readyz\` answers 503 while the database does not answer.
- **Uploads with active content** are refused with 415 \`UNSUPPORTED_MEDIA_TYPE\` and the message
  "${ACTIVE_CONTENT_MESSAGE}", whatever their type: a polyglot (a PDF, JPEG, PNG or WebP that is also an HTML page, a
  script or PHP), a JPEG or other image carrying a script payload (\`<script>\`, \`<iframe>\`, an \`<img>\` or
  \`<svg>\` event handler, a \`javascript:\` URL), and a PDF with a JavaScript (\`/JavaScript\`) or Launch
  (\`/Launch\`) action. A file that is not a PDF, JPEG, PNG or WebP by its content is also 415, with the message
  "${UNSUPPORTED_FILE_MESSAGE}"
- **A full database disk** while storing an upload is 507 \`INSUFFICIENT_STORAGE\` with the message "${DISK_FULL_MESSAGE}"
  Nothing is left behind (neither the bytes nor the row: one transaction), and the next upload that fits works.

## Request ids and idempotency
Send \`X-Request-ID\` (1–128 characters of \`A-Z a-z 0-9 . _ : -\`) on every call; the server echoes it
(or a generated UUID) on every reply and in its log line. For POSTs that create something
(\`POST /api/v1/auth/register\`, \`POST /api/v1/blood-requests\`) the same \`X-Request-ID\` is an
idempotency key: a retry with the same body returns the first result (with the header
\`Idempotent-Replayed: true\`) and creates nothing new; the same id with a different body is 409 \`CONFLICT\`.
Keys are kept 24 hours. No stored reply holds a token or a password (a copy of the database signs nobody in):
a registration retry gets the same account with **new** tokens, and only while its body still carries the
account's current password.

## Rate limiting
Some routes are limited per client address; each says its limit. Over the limit the reply is
429 \`RATE_LIMITED\` with a \`Retry-After\` header (seconds). \`GET /api/v1/config\` allows 300 requests
per minute per address.

## Authentication and sessions
\`Authorization: Bearer <accessToken>\`: a JWT (HS256, \`iss\` bdms-server, \`aud\` bdms-api) valid 1 hour;
replies give \`expiresIn\` in seconds (3600). Every way a token can be bad — missing, malformed, expired, signed
with another key, \`alg: none\`, the account erased, or issued before a password change or reset — is the same
401 \`UNAUTHENTICATED\` "Your session has expired. Please sign in again.": refresh with
\`POST /api/v1/auth/refresh\`, else sign in again. Signed in but not allowed is 403 \`FORBIDDEN\`.
The refresh token is opaque, valid 30 days, stored only as a hash, and **not rotated** by a refresh (keep it).
Logout revokes it, refuses the account's access tokens issued before (the token version carried in each token
is raised; the user's other devices get a new access token at their next refresh) and removes the push
subscription the browser names (\`pushEndpoint\`); a password change or reset revokes all of the account's
sessions, refuses the access tokens already issued, and voids every reset link mailed before.

Decisions where the contract left a choice:
- **Suspended donors can sign in**, read their own account (its \`status\` says \`suspended\`) and edit their
  profile; features that act for or reach other people refuse them with 403 \`FORBIDDEN\`. A suspension
  signs the donor out once (it revokes the sessions).
- **Per-account limits** (also for addresses with no account, so a 429 reveals nothing): 5 wrong passwords
  in 15 minutes per e-mail address (sign-in and the current password when changing it). The e-mailed code
  and reset-link flows are keyed by client address *and* e-mail address with exponential backoff (3 codes or
  links, or 5 wrong codes, then a wait doubling up to an hour), so a stranger who knows an address slows down
  only themself; earlier codes and links keep working until used or expired, and each code has separate
  budgets of 5 tries for the address that asked for it and for everyone else. These are counted in memory per
  server process; the ceilings that must hold across processes are in PostgreSQL: 10 sign-in codes per e-mail
  address and 5 phone number changes per account per calendar day in India. All answer 429
  \`RATE_LIMITED\` with \`Retry-After\`.
- **Passwords** that are common or easy to guess (zxcvbn score below 3: breach lists, keyboard walks, words
  with digits tacked on, or made of the account's e-mail, name or phone) are 400 \`WEAK_PASSWORD\` on the
  password field, at registration, reset and change.
- **Phone number changes** wait for a code sent by SMS to the new number (\`PATCH /api/v1/users/{id}\` answers
  \`phoneChange\`, \`POST /api/v1/users/{id}/phone/confirm\` applies it). The answer does not say whether the
  number is registered. Without an SMS provider a phone change is 409 \`SMS_UNAVAILABLE\`.
- **Enumeration**: a wrong password and an unknown e-mail get the same 401 \`INVALID_CREDENTIALS\` in the same
  time (an unknown address is checked against a dummy hash); asking for a code or a reset link answers
  \`{sent: true}\` for any address. \`check-email\` and \`check-phone\` reveal registration by nature and
  are limited to 20 requests a minute per client address.
- **Blood type**: a donor can change it only while \`pending\`; later it is 409 \`BLOOD_TYPE_LOCKED\`
  (an administrator can still correct it).
- **Changing the password** (\`POST /api/v1/users/{id}/password\`): a wrong current password is 400
  \`VALIDATION_ERROR\` on \`body.currentPassword\` (not 401, which would make the client refresh); the reply
  carries new tokens for the device that made the change.
- **Privacy**: the user object carries an e-mail address and phone number, so it is only sent to the user
  themself and to administrators; nothing else replies with another user's contact details.
- New donors start with \`available: true\`; approval, not that flag, keeps pending donors out of matching.

## The donor's journey: decisions
- **Eligibility** follows India's rules (Drugs and Cosmetics Rules 1945, Schedule F Part XII-B, as amended by
  G.S.R. 166(E) of 11 March 2020; NBTC donor-selection guidelines), kept as a data table in the shared package so the
  web app shows the same verdict: 18–65 years, first-time donors not over 60, at least 45 kg (350 ml; over 55 kg
  450 ml), haemoglobin at least 12.5 g/dL when known, 90 days between whole-blood donations for men and 120 for women.
  **\`other\` gets 120 days** (the conservative choice). \`nextEligibleAt\` is the latest end of the running timed
  deferrals and of the donation interval (shown even once passed), null when permanently deferred or when no date can
  be known ("while it lasts": pregnancy, a cold, low weight). Verdicts are recomputed when read, so deferrals end on their own.
- **Hidden after a donation**: a reported (unverified) donation, a recorded one, and a last-donation date answered in
  the questionnaire all move \`lastDonationAt\`, which hides the donor from matching for their interval.
- **Onboarding** is complete when the questionnaire is submitted and, while \`documentUpload\` is on, an ID proof that
  is not rejected is uploaded. Administrators are told once per submission; a \`rejected\` donor who changes their
  documents or questionnaire goes back to \`pending\` and is told so.
- **Documents** are typed by their content (PDF, JPEG, PNG, WebP magic bytes), never by name or declared type; stored
  in PostgreSQL (\`bytea\` chunks, in the same transaction as their row, so every instance serves them and erasure
  deletes them), served only as attachments with \`nosniff\` and \`Cache-Control: private, no-store\`. A full disk is 507 \`INSUFFICIENT_STORAGE\`.
  One document per type: a pending or rejected one is replaced, a verified one is not (409).
- **Availability** lapses 90 days after the donor last confirmed it (PUT availability, or PATCH \`available\`);
  \`needsReconfirmation\` from day 83, when one reminder is sent; an hourly job turns lapsed availability off.
- **Donor stats**: \`livesImpacted\` = 3 × verified units (one unit gives red cells, plasma and platelets);
  \`requestsResponded\` counts the blood requests the donor accepted.
- **Notifications** are written in the user's language (en, es, hi, bn, mr, te, ta; English otherwise) in the same transaction as the event, with one
  delivery row per push subscription (and one for e-mail, for what a donor must not miss — status changes, document
  verdicts — while \`emailNotifications\` is on). A worker delivers them (retry after 30 s × 2^attempts, at most 8
  attempts, a lease with \`FOR UPDATE SKIP LOCKED\`), so deliveries survive restarts and are sent once; a push service
  answering 404/410 removes the subscription. Only the browsers' push services are accepted as endpoints.
- **Certificates** exist for verified donations only and are generated on request; the public verification shows
  the donor's first name and last initial only, and is limited to 30 requests a minute per address.
- **Privacy rights** (DPDP Act 2023): \`GET /users/{id}/export\` returns everything as a JSON attachment;
  \`DELETE /users/{id}\` erases files and personal data, keeps donations (linked to the blanked account) so
  counts stay right, and logs the erasure without personal data.

## Administration: decisions
- **Who**: every \`/api/v1/admin/*\` route and \`/api/v1/analytics/dashboard\` is for role \`admin\`. The token and the
  role are checked first (before the body or ids are validated): anonymous 401, donors and hospitals 403.
- **Donor status** (API.md): \`pending\` → \`approved\` | \`rejected\` (reason); \`approved\` → \`suspended\` (reason) →
  \`approved\` (reactivate); \`rejected\` → \`pending\` only by the donor's own changes. Anything else is 409
  \`INVALID_TRANSITION\`. **Approving a donor who has not completed onboarding is 409 \`ONBOARDING_INCOMPLETE\`** (a
  distinct code, so the console can say what is missing). Reasons are stored on the user (\`rejectionReason\`,
  \`suspensionReason\`, sent in the user object while that status lasts) and cleared by approve / reactivate. A
  suspension signs the donor out everywhere. Each move, in one transaction: the change, the activity log entry and the
  donor's notification (in-app, push, and e-mail while mail is on).
- **Access to personal data is logged**: opening a donor's details records \`donor.viewed\`; every export records
  \`donors.exported\` (filters, row count). Labels in the activity feed are names, never e-mail addresses or phones.
- **Hospital accounts** sign in with their own password, set from an invitation link (72 hours, single use). A
  disabled hospital's right password gets **403 \`ACCOUNT_DISABLED\`** (a wrong one still 401 \`INVALID_CREDENTIALS\`,
  so only the password holder learns it); its sessions are revoked when it is disabled. Disable / enable are
  idempotent.
- **Notification settings** (\`emailEnabled\`, \`pushEnabled\`) switch those channels for every notification; the
  in-app notification is always written. Account e-mails (codes, reset links, invitations) are always sent.
- **Blood requests** back the requests summary and the \`requests\` series (see "Blood requests and matching").

## Blood requests and matching: decisions
- **Who makes them**: anyone, guests too (\`POST /api/v1/blood-requests\` takes an optional bearer token). A guest's or
  donor's request starts \`pending\` and reaches no donor until an administrator, or the hospital it names, verifies
  it — so fake requests never reach donors. A hospital account's or an administrator's starts \`verified\` (its history
  shows \`pending\` then \`verified\` at the same instant) and its first matching round runs in the same transaction.
- **State machine** (409 \`INVALID_TRANSITION\` otherwise): \`pending → verified → in_progress → fulfilled\`;
  \`cancelled\` and \`expired\` from \`pending\`, \`verified\` or \`in_progress\`. There is **no \`rejected\`**: a fake
  request is \`cancelled\` with notes. \`DELETE /blood-requests/{id}\` cancels (never a hard delete). The first donor to
  accept moves a verified request to \`in_progress\` (history by \`system\`). Requests expire at \`requiredBy\`, else 72
  hours after creation (a job, every minute; history by \`system\`). History items are \`{status, notes, by, byRole, at}\`
  (\`by\`: the user id, null for a guest or the system).
- **Who sees what**: the owner, administrators and the hospital a request names (its hospital account's own, those
  linked to its hospital, those naming its facility, or its name — ignoring case and punctuation — in its city) see the
  full request. A donor told about a request sees blood type, units, urgency, hospital, city and distance; the
  requester's name, phone and the address only **after accepting**. Tracking by code shows no personal data at all.
  Administrators' and hospitals' reads of other people's contact data (lists, a request, accepted donors) are
  recorded in the activity log (who, what, how many — never the numbers). Phones are redacted from server logs.
- **Abuse limits** (guests and donors; hospital accounts and administrators are exempt): 5 requests per hour per
  client address (in memory, per process) and 3 per contact phone per 24 hours (in the database); 429 with
  \`Retry-After\`. **Duplicate guard**: an open request with the same contact phone, blood type and hospital (the same
  facility, else the same normalised name in the same city) made in the last 24 hours is returned with **200** and
  \`duplicate: true\` instead of a new one. **Idempotent** by \`X-Request-ID\` (same id and body → the first reply).
- **Location**: the facility's coordinates (the hospital picker's \`facilityId\`), else the given latitude/longitude,
  else the PIN code's centroid (India Post data), else none — then the request is kept but matching cannot run
  (\`locationSource: null\`, \`searchRadiusKm\` null). A donor without a point of their own is placed at their PIN code's
  centroid.
- **Matching**, when a request becomes \`verified\`: one SQL query finds donors in the bounding box of the radius
  (role donor, approved, not erased, available, a blood type that can give red cells to the patient's, no whole-blood
  donation in the last 90 days) with their questionnaire deferral and their alerts of the last 7 days; a pure function
  (shared \`rankCandidates\`) then applies every rule exactly: availability not lapsed (90 days without reconfirmation, or
  its \`until\` day passed), the donation interval by gender (90 days for men, 120 for women and \`other\`), no running
  deferral, decided from the questionnaire's answers at matching time and not read from the verdict stored when they
  were saved (age 18–65 and a first-time donor not over 60 — a recorded donation proves an earlier one —, permanent,
  open-ended such as pregnancy or a cold until the questionnaire is answered again, a timed one until 00:00 IST of its
  end day; or answers an administrator rejected, or whose review a change reopened and no administrator has decided), within the radius by haversine distance, never told
  about this request before (a donor who declined is never asked again), and the **fairness cap**: fewer than
  \`maxAlertsPerDonorPer7d\` (default 2) request alerts in the last 7 days. **Order** (whatever the flags;
  docs/decisions/011-compatible-donors-by-default.md): exact blood type first, then every red-cell-compatible type
  (ABO/RhD table), which fill the round only where the exact type cannot — an AB− patient with no AB− donor near
  reaches O−, A− and B− donors in the first round, and an O− patient only O− donors; nearest first within each (every
  donor in a round is within reach; asking the exact type first spares the universal O− donors). With the
  \`advancedMatching\` flag on, each type tier is ordered instead by the kilometres travelled per donor who comes,
  (distance + 1 km) ÷ the donor's likelihood of accepting, (accepted + 1) ÷ (alerts + 2) over their alerts for other
  requests of the last year (answered, or unanswered for 2 days): a reliable donor a little farther comes before a
  near one who never answers. At most \`maxDonorsPerRequest\` (default 20) **per round**. Radius of the first round:
  \`matchRadiusKm\` (default 25 km). Each donor told gets an in-app notification, web push and e-mail where on, written
  in the same transaction as the match rows: blood type, units, urgency, hospital, city and distance — never the
  requester's phone.
- **Widening**: a job checks, every minute, verified or in-progress requests with fewer accepted donors than units
  needed, 30 minutes after their last round, and runs the next round with the radius at least doubled (25 → 50 → 100 km,
  at most 100 km), telling only donors not told before; \`searchRadiusKm\` (request, tracking) is the latest radius.
- **Responding** (\`POST /{id}/respond\`): only a donor who was told (non-donors 403, other donors 404). The same answer
  again is idempotent (200, same reply); the other answer after one was given is 409 \`CONFLICT\`. On accept the
  registered requester and the hospital are told "N donors on their way". **Donations**: \`POST /api/v1/donations\`
  with \`requestId\` links the donation to the donor's match (a walk-in donor gets an accepted match of round 0); an
  unknown \`requestId\` is 404. The donation moves the donor's last donation, so later requests skip them for their
  interval. \`GET /{id}/donors\` gives the hospital (and administrators) accepted donors' names and phones.
- **Admins are told** at once about every Critical request (in-app, push and e-mail) while \`notifyAdminsOnCritical\`
  is on, and in-app about every pending request (as is the hospital it names), so it gets verified quickly. In a
  burst, each administrator gets the first 3 Critical e-mails of a 10-minute window one by one and the rest in one
  digest e-mail at the window's end (in-app and push still one by one; counted in the database across processes).
- **Facilities search** is misspelling-tolerant (pg_trgm word similarity with a GIN index; ILIKE where pg_trgm cannot be
  installed). The directory and PIN code data are loaded from \`apps/server/data\` at start, idempotently (a hash of
  the file and of the cleaning rules' version, and the row count, in \`data_imports\`), with the cleaning rules of its
  README. Extensions: the directory's filters (also \`components\`, \`apheresis\`, \`open24x7\`) apply to search and
  nearby; nearby also takes a \`pincode\` or a \`place\` name (404 when unknown) and replies the \`origin\` with the
  point's \`confidence\` (high/medium/low; the radius widens around medium and low points, and low ones are
  \`approximate\`); \`GET /api/v1/public/places\` lists place names (towns, city localities, districts) with their point;
  \`/facets\` counts what the filters can offer (computed once per start); \`GET /api/v1/public/stats\` gives the home
  page's counts (cached 5 minutes).

## Public content: decisions
- **Source**: articles, categories, FAQs and the privacy and terms pages are files in \`apps/server/content\`
  (Markdown with YAML front matter, and YAML), validated and loaded into the database on every start. Loading is
  idempotent: entries are matched by slug (FAQs by id) and rewritten only when their content hash changes; views,
  downloads and helpful votes are never reset; an entry removed from the files is unpublished (404) and comes back
  with its counts if restored. A file that breaks the format stops the start with a message naming the file and field.
- **Caching**: the public GETs send \`Cache-Control: public, max-age=300\` and a weak ETag (\`If-None-Match\` → 304),
  so counts in lists may be five minutes old. \`GET /api/public/education/content/{slug}\` counts a view and is
  \`no-store\`. The public reads that are the same for every caller (education and facility lists, searches,
  facets, FAQs, policy pages, public stats) may be answered from a one-second server cache of the exact address,
  emptied by any successful write; a request carrying \`Authorization\` is never answered from it nor stored in it.
  Every other API reply (all signed-in replies, sign-in tokens, errors) is \`Cache-Control: no-store\`.
- **Views**: one per client address per article per hour (remembered in memory by each server process); HEAD never
  counts. **Downloads**: every PDF download counts (rate-limited per address).
- **Search** (\`q\`): PostgreSQL full-text search (English, websearch syntax), relevance first, over the title, summary
  and text; one or two characters, or a query that finds nothing that way, fall back to a case-insensitive substring
  match. **FAQs** are not paginated (\`{items}\`, the help centre's order); featured, popular and categories are arrays.
- **Lists** of articles are newest first (\`publishedAt\`, a day \`YYYY-MM-DD\`), then by title.
- **Contact form**: stored, then e-mailed to \`SUPPORT_EMAIL\` through the outbox with Reply-To set to the sender;
  the sender's address never reaches the logs; the client address is kept only as a keyed hash; messages are deleted
  a year after they were dealt with. Idempotent by \`X-Request-ID\`; 5 per hour per address.

## E-mail
Every message is written to the \`mail_outbox\` table, then sent. Without \`SMTP_URL\` it stays there with
status \`logged\` and the log shows only its kind, subject and the recipient's domain: developers read codes
and links from the table. With \`SMTP_URL\` a failed send is retried after 1 minute × 2^(attempt − 1), up to
8 attempts (status \`failed\` after that); the schedule is in the table, so it survives restarts. The bodies
of sent messages are blanked, since they hold sign-in codes and reset links. Account e-mails are written in
the user's language (en, es, hi, bn, mr, te, ta; English otherwise).

## Configuration extensions
Beyond the documented environment variables the server reads:
- \`SMS_SMPP_URL\` (\`smpp://system_id:password@host:port\`), \`SMS_SENDER_ID\`, \`SMS_DLT_ENTITY_ID\`,
  \`SMS_DLT_TEMPLATE_IDS\` (\`name=id,…\`), \`SMS_WINDOW\`: SMS over SMPP v3.4 with India's DLT ids as TLVs
  0x1400 (entity) and 0x1401 (template); replies YES/NO/STOP arrive as deliver_sm on the same link.
- \`WHATSAPP_API_URL\`, \`WHATSAPP_API_VERSION\`, \`WHATSAPP_TOKEN\`, \`WHATSAPP_PHONE_NUMBER_ID\`,
  \`WHATSAPP_APP_SECRET\`, \`WHATSAPP_VERIFY_TOKEN\`, \`WHATSAPP_ALERT_TEMPLATE\`,
  \`WHATSAPP_REQUEST_RECEIVED_TEMPLATE\`, \`WHATSAPP_DONOR_COMING_TEMPLATE\`, \`WHATSAPP_CODE_TEMPLATE\`: the WhatsApp
  Business Cloud API and its signed webhook (\`/api/v1/webhooks/whatsapp\`); one-time phone codes go by WhatsApp's
  authentication template when SMS is not configured.
- \`SUPPORT_EMAIL\`: the address shown to users (default \`${DEFAULT_SUPPORT_EMAIL}\`).
- \`WEB_DIST_DIR\`: the built web app to serve (default \`<repository>/apps/web/dist\`).
- \`TRUST_PROXY\`: behind reverse proxies, which of them to believe, so client addresses and HTTPS (for
  HSTS) come from \`X-Forwarded-For\` / \`X-Forwarded-Proto\`: a hop count (\`1\`) or comma-separated
  addresses / CIDR ranges (default \`false\`; \`true\` is refused, since any client could then choose its
  own address).
`;
}

/** Registered before the routes so @fastify/swagger sees them as they are added. */
export const openApiPlugin = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: `${APP_NAME} API`, version: options.version, description: apiDescription() },
        tags: OPENAPI_TAGS,
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
    });
  },
  { name: 'bdms-openapi' },
);

/**
 * Swagger UI loads only its own files and uses inline styles, which the app-wide CSP already
 * allows, so the docs keep that CSP (frame-ancestors 'none' included) instead of a looser one.
 */
export const openApiUiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: false,
      uiConfig: { deepLinking: true, docExpansion: 'list', validatorUrl: null },
    });
  },
  { name: 'bdms-openapi-ui' },
);
