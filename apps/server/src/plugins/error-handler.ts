import type { ErrorCode } from '@bdms/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAppError } from '../lib/app-error';
import { isDatabaseUnavailable, sqlState } from '../lib/db-errors';
import { validationDetails, type ValidationItem } from '../lib/validation-details';

export const GENERIC_500_MESSAGE = 'Something went wrong on our side. Please try again.';
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a few seconds.';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

interface MappedError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
  headers?: Record<string, string>;
}

const BY_FASTIFY_CODE: Record<string, MappedError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Malformed JSON body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'The body is empty but Content-Type says JSON; send a JSON value or no Content-Type',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported Content-Type; send application/json',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Invalid Content-Type header',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Content-Length does not match the body',
  },
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * SQLSTATEs caused by data values: 22021 invalid byte sequence (NUL), 22P05 untranslatable
 * character, 22008 date/time field overflow, 22007 invalid date/time format.
 */
const CLIENT_DATA_STATES = new Set(['22021', '22P05', '22008', '22007']);

export function mapError(error: FastifyError | Error): MappedError {
  if (isAppError(error)) {
    return {
      status: error.statusCode,
      code: error.code,
      message: error.message,
      details: error.details,
      headers: error.headers,
    };
  }
  const fastifyError = error as FastifyError & { validation?: ValidationItem[] };
  if (Array.isArray(fastifyError.validation)) {
    return {
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Some fields are missing or invalid',
      details: validationDetails(fastifyError.validation, fastifyError.validationContext),
    };
  }
  const known = fastifyError.code ? BY_FASTIFY_CODE[fastifyError.code] : undefined;
  if (known) return known;
  // The client's text or values the database cannot take (a NUL byte, a date out of range) that
  // slipped past validation: the request's fault, said without the database's words.
  const state = sqlState(error);
  if (state && CLIENT_DATA_STATES.has(state)) {
    return {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'The request holds a value that cannot be stored. Check the fields and try again.',
    };
  }
  const status = fastifyError.statusCode;
  if (error instanceof SyntaxError && status === 400) {
    // secure-json-parse rejects __proto__ / constructor poisoning this way.
    return { status: 400, code: 'BAD_REQUEST', message: 'Malformed JSON body' };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's and its plugins' 4xx messages describe the request, never our internals.
    return {
      status,
      code: BY_STATUS[status] ?? 'BAD_REQUEST',
      message: error.message || 'Bad request',
    };
  }
  // The database restarting or unreachable: a moment later the same request may succeed.
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: UNAVAILABLE_MESSAGE,
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: GENERIC_500_MESSAGE };
}

/**
 * Error texts may quote what the client sent: a URL (a malformed one, or an unknown route), the
 * name of an unknown field. `<` and `>` in them are written as their percent-escapes, so no
 * error reply ever carries markup back, whatever displays it (issue #9, "Hostile input").
 */
function inert<T>(value: T): T {
  if (typeof value === 'string') {
    return value.replace(/[<>]/g, (char) => (char === '<' ? '%3C' : '%3E')) as T;
  }
  if (Array.isArray(value)) return value.map(inert) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [inert(key), inert(child)]),
    ) as T;
  }
  return value;
}

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  const text = inert(message);
  return {
    success: false as const,
    error:
      details === undefined
        ? { message: text, code }
        : { message: text, code, details: inert(details) },
  };
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const mapped = mapError(error);
  if (mapped.status >= 500) {
    // `errorCode`, not `code`: the redaction list hides fields named `code` (one-time codes).
    request.log.error({ err: error, errorCode: (error as FastifyError).code }, 'request failed');
  } else {
    request.log.info({ errorCode: mapped.code, status: mapped.status }, mapped.message);
  }
  if (mapped.headers) reply.headers(mapped.headers);
  return reply.code(mapped.status).send(errorBody(mapped.code, mapped.message, mapped.details));
}

/** The single error handler for every route (CONVENTIONS "One error model"). */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(errorHandler);
  },
  { name: 'bdms-error-handler' },
);
