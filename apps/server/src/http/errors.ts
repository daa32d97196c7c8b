import { Code, fail, retryAfterSeconds } from '@atrium/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ApiError, Messages } from './envelope';
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

/** One validation issue as `<field>: <problem>`, the field being the dotted path in the body. */
function describeIssue(issue: Issue, body: unknown): string {
  const segments = issue.instancePath.split('/').filter(Boolean);
  const field = segments.length > 0 ? segments.join('.') : 'body';
  const params = issue.params ?? {};
  if (issue.keyword === 'unrecognized_keys' && Array.isArray(params.keys)) {
    const keys = params.keys.map(String);
    const prefix = segments.length > 0 ? `${field}.` : '';
    return `${keys.map((k) => prefix + k).join(', ')}: unknown field`;
  }
  if (issue.keyword === 'invalid_type') {
    if (valueAt(body, segments) === undefined) return `${field}: is required`;
    const expected = typeof params.expected === 'string' ? params.expected : 'another type';
    return `${field}: expected ${expected}`;
  }
  const message = issue.message ?? 'is invalid';
  const named =
    message.startsWith(`${segments.at(-1) ?? field} `) || message.startsWith(`${field}:`);
  return named ? message : `${field}: ${message}`;
}

/**
 * The first problem of a zod error, worded like a route's validation failure (an unknown field
 * first, since it usually explains a "missing" one): for bodies a route parses itself.
 */
export function describeZodError(error: z.ZodError, body: unknown): string {
  const issues: Issue[] = error.issues.map((issue) => ({
    instancePath: issue.path.map((segment) => `/${String(segment)}`).join(''),
    keyword: issue.code,
    message: issue.message,
    params: {
      ...('keys' in issue ? { keys: issue.keys } : {}),
      ...('expected' in issue ? { expected: issue.expected } : {}),
    },
  }));
  const first = issues.find((issue) => issue.keyword === 'unrecognized_keys') ?? issues[0];
  return first ? describeIssue(first, body) : 'body: is invalid';
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
  void reply
    .code(req.method === 'POST' ? 200 : status)
    .send(fail('url: cannot be read (bad percent-encoding, or a part is too long)'));
}

/**
 * Every handled outcome answers HTTP 200 with the envelope (DESIGN 4); an unknown route is 404;
 * anything unexpected is 500 with a generic message, logged with the request id, never a stack.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply.code(200).send(fail(error.message, error.code, error.data));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // An unknown field usually explains a "missing" one (a misspelt name), so it goes first.
      const first =
        error.validation.find((issue) => issue.keyword === 'unrecognized_keys') ??
        error.validation[0];
      const msg = first ? describeIssue(first, req.body) : 'body: is invalid';
      return reply.code(200).send(fail(msg));
    }
    if (isFastifyError(error)) {
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          return reply.code(200).send(fail(Messages.invalidJson));
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          return reply.code(200).send(fail(Messages.bodyTooLarge));
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return reply.code(200).send(fail(Messages.unsupportedContentType));
        case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
          return reply.code(200).send(fail('Request body size did not match Content-Length'));
      }
      const status = error.statusCode ?? 500;
      if (status === 404) return reply.code(404).send(fail(Messages.notFound));
      if (status >= 400 && status < 500) {
        req.log.info({ err: error }, 'request refused');
        // API calls are POSTs and always answer 200 with the envelope; page and file GETs keep
        // their status so browsers and caches see it.
        return reply.code(req.method === 'POST' ? 200 : status).send(fail(error.message));
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
    return reply.code(500).send(fail(Messages.internal, Code.Failure, null));
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).send(fail(Messages.notFound)));
}
