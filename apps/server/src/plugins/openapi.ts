import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_NAME, ERROR_CODES } from '@bdms/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DEFAULT_SUPPORT_EMAIL } from '../config/env';

export const DOCS_PREFIX = '/api/docs';

export const OPENAPI_TAGS = [
  { name: 'health', description: 'Probes for load balancers and orchestrators.' },
  {
    name: 'config',
    description:
      'Public settings the web app reads at start: feature flags, support address, push key.',
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

## Request ids and idempotency
Send \`X-Request-ID\` (1–128 characters of \`A-Z a-z 0-9 . _ : -\`) on every call; the server echoes it
(or a generated UUID) on every reply and in its log line. For POSTs that create something
(\`POST /api/v1/auth/register\`, \`POST /api/v1/blood-requests\`) the same \`X-Request-ID\` is an
idempotency key: a retry returns the first result and creates nothing new.

## Rate limiting
Some routes are limited per client address; each says its limit. Over the limit the reply is
429 \`RATE_LIMITED\` with a \`Retry-After\` header (seconds). \`GET /api/v1/config\` allows 300 requests
per minute per address.

## Authentication
\`Authorization: Bearer <accessToken>\` (a JWT valid 1 hour).

## Configuration extensions
Beyond the documented environment variables the server reads:
- \`SUPPORT_EMAIL\`: the address shown to users (default \`${DEFAULT_SUPPORT_EMAIL}\`).
- \`WEB_DIST_DIR\`: the built web app to serve (default \`<repository>/apps/web/dist\`).
- \`TRUST_PROXY\`: \`true\` behind a reverse proxy, so client addresses and HTTPS (for HSTS) come from
  \`X-Forwarded-For\` / \`X-Forwarded-Proto\` (default \`false\`).
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
