import { Code, retryAfterSeconds } from '@atrium/shared';
import {
  fieldName,
  isMessageKey as isCatalogued,
  message,
  type MessageRef,
} from '@atrium/shared/messages/catalogue';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ApiError, refusal } from './envelope';
import { outageOf, unavailableRefusal } from './unavailable';

interface Issue {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const withField = (ref: MessageRef, field: string): MessageRef => ({ ...ref, field });

const numberParam = (params: Record<string, unknown>, name: string) => {
  const value = params[name];
  return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : 0;
};

/**
 * One validation issue as a catalogue message naming the field in words (issue 27, point 3). A
 * schema's own message that is a catalogue key ("account.usernameTaken") is used as it is.
 */
function describeIssue(issue: Issue, body: unknown): MessageRef {
  const segments = issue.instancePath.split('/').filter(Boolean);
  const path = segments.join('.');
  const field = fieldName(path || 'body');
  const params = issue.params ?? {};
  if (issue.keyword === 'unrecognized_keys' && Array.isArray(params.keys)) {
    const keys = params.keys.map((k) => (path ? `${path}.${String(k)}` : String(k)));
    return withField(message('validation.unknownField', { field: keys.join(', ') }), keys[0] ?? '');
  }
  const at = (ref: MessageRef) => withField(ref, path);
  if (issue.message && isCatalogued(issue.message)) {
    // A refinement's own numbers (`refine(…, { message, params: { max: 6 } })`) fill its message.
    const own = params.params;
    const numbers =
      own !== null && typeof own === 'object'
        ? Object.fromEntries(
            Object.entries(own).filter((entry): entry is [string, number] => {
              return typeof entry[1] === 'number';
            }),
          )
        : {};
    return at({ key: issue.message, params: { ...numbers, field } });
  }
  const inclusive = params.inclusive !== false;
  switch (issue.keyword) {
    case 'invalid_type':
      return at(
        valueAt(body, segments) === undefined
          ? message('validation.required', { field })
          : message('validation.type', { field }),
      );
    case 'too_small': {
      const min = numberParam(params, 'minimum') + (inclusive ? 0 : 1);
      if (params.origin === 'string')
        return at(
          min <= 1
            ? message('validation.required', { field })
            : message('validation.tooShort', { field, min }),
        );
      if (params.origin === 'array' || params.origin === 'set')
        return at(message('validation.tooFew', { field, min }));
      return at(message('validation.tooSmall', { field, min: numberParam(params, 'minimum') }));
    }
    case 'too_big': {
      const max = numberParam(params, 'maximum');
      if (params.origin === 'string') return at(message('validation.tooLong', { field, max }));
      if (params.origin === 'array' || params.origin === 'set')
        return at(message('validation.tooMany', { field, max }));
      return at(message('validation.tooBig', { field, max }));
    }
    case 'invalid_value':
      return Array.isArray(params.values)
        ? at(message('validation.oneOf', { field, options: params.values.map(String).join(', ') }))
        : at(message('validation.invalid', { field }));
    case 'invalid_format':
      if (params.format === 'email') return at(message('validation.email', { field }));
      if (params.format === 'url') return at(message('validation.url', { field }));
      return at(message('validation.format', { field }));
    case 'not_multiple_of':
      return at(message('validation.notInteger', { field }));
    default:
      return at(message('validation.invalid', { field }));
  }
}

/**
 * The first problem of a zod error, as a route's validation failure (an unknown field first,
 * since it usually explains a "missing" one): for bodies a route parses itself.
 */
export function describeZodError(error: z.ZodError, body: unknown): MessageRef {
  const issues: Issue[] = error.issues.map((issue) => ({
    instancePath: issue.path.map((segment) => `/${String(segment)}`).join(''),
    keyword: issue.code,
    message: issue.message,
    params: { ...issue } as Record<string, unknown>,
  }));
  const first = issues.find((issue) => issue.keyword === 'unrecognized_keys') ?? issues[0];
  return first ? describeIssue(first, body) : message('validation.body');
}

/** The file-manager routes answer SPEC's uploader, which retries a file on `ShouldRetryUpload`. */
function isUploadCall(req: FastifyRequest): boolean {
  return req.url.includes('/file_manager/');
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error;
}

/**
 * A URL the router cannot read (bad percent-encoding, a segment over the length limit) is refused
 * like any other request, before a route is chosen: the envelope, HTTP 200 for API POSTs.
 */
export function answerFrameworkError(
  error: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
): void {
  req.log.info({ err: error }, 'request refused by the router');
  const status = error.statusCode ?? 400;
  void reply.code(req.method === 'POST' ? 200 : status).send(refusal(message('http.badUrl')));
}

/**
 * Every handled outcome answers HTTP 200 with the envelope (DESIGN 4); an unknown route is 404;
 * anything unexpected is 500 with a generic message, logged with the request id, never a stack.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply.code(200).send(refusal(error.ref, error.code, error.data));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // An unknown field usually explains a "missing" one (a misspelt name), so it goes first.
      const first =
        error.validation.find((issue) => issue.keyword === 'unrecognized_keys') ??
        error.validation[0];
      const ref = first ? describeIssue(first, req.body) : message('validation.body');
      return reply.code(200).send(refusal(ref));
    }
    if (isFastifyError(error)) {
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          return reply.code(200).send(refusal(message('http.invalidJson')));
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          return reply.code(200).send(refusal(message('http.bodyTooLarge')));
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return reply.code(200).send(refusal(message('http.unsupportedContentType')));
        case 'ATRIUM_BODY_STALLED':
          return reply
            .code(req.method === 'POST' ? 200 : 408)
            .send(refusal(message('http.bodyStalled')));
        case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
          return reply.code(200).send(refusal(message('http.contentLengthMismatch')));
      }
      const status = error.statusCode ?? 500;
      if (status === 404) return reply.code(404).send(refusal(message('http.notFound')));
      if (status >= 400 && status < 500) {
        req.log.info({ err: error }, 'request refused');
        // API calls are POSTs and always answer 200 with the envelope; page and file GETs keep
        // their status so browsers and caches see it.
        return reply
          .code(req.method === 'POST' ? 200 : status)
          .send(refusal(message('http.refused', { reason: error.code })));
      }
    }
    const outage = outageOf(error);
    if (outage) {
      // An outage is the infrastructure's, not a bug: one warning line, a retryable refusal.
      req.log.warn({ err: error, outage }, 'request refused: infrastructure unavailable');
      const refusal = unavailableRefusal(outage, isUploadCall(req));
      if (req.method === 'POST') return reply.code(200).send(refusal);
      return reply.code(503).header('retry-after', String(retryAfterSeconds[outage])).send(refusal);
    }
    req.log.error({ err: error }, 'request failed');
    return reply.code(500).send(refusal(message('http.internal'), Code.Failure, null));
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).send(refusal(message('http.notFound'))));
}
