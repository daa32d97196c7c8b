import { Code, outageOfEnvelope, type Outage } from '@atrium/shared';
import { defineCalls } from '@atrium/shared/contract/call';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../testing/test-app';
import { route } from './route';
import { outageListeners, outageOf, UnavailableError } from './unavailable';

function pgError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

function systemError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('outageOf', () => {
  it('names the outage behind the database drivers’ own errors', () => {
    const cases: [unknown, Outage | undefined][] = [
      [pgError('57P01', 'terminating connection due to administrator command'), 'database'],
      [pgError('08006', 'connection failure'), 'database'],
      [pgError('57014', 'canceling statement due to statement timeout'), 'database'],
      [pgError('53300', 'sorry, too many clients already'), 'database'],
      [pgError('53100', 'could not extend file: No space left on device'), 'diskFull'],
      [new Error('Connection terminated unexpectedly'), 'database'],
      [new Error('timeout exceeded when trying to connect'), 'database'],
      [new Error('Query read timeout'), 'database'],
      [systemError('SQLITE_FULL', 'database or disk is full'), 'diskFull'],
      [systemError('SQLITE_BUSY', 'database is locked'), 'database'],
      [systemError('SQLITE_IOERR_WRITE', 'disk I/O error'), 'database'],
      [systemError('ENOSPC', 'no space left on device, write'), 'diskFull'],
      [new Error('wrapped', { cause: systemError('EDQUOT', 'quota') }), 'diskFull'],
      [new UnavailableError('storage', new Error('socket hang up')), 'storage'],
      [new UnavailableError('redis'), 'redis'],
    ];
    for (const [error, outage] of cases) expect(outageOf(error), String(error)).toBe(outage);
  });

  it('leaves bugs and refusals of the database alone: they are not outages', () => {
    for (const error of [
      pgError('23505', 'duplicate key value violates unique constraint'),
      pgError('42P01', 'relation "nope" does not exist'),
      systemError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'),
      systemError('ENOENT', 'no such file'),
      new TypeError('cannot read properties of undefined'),
      'a string',
      null,
    ])
      expect(outageOf(error), String(error)).toBeUndefined();
  });
});

const testCalls = defineCalls('member', {
  'test/outage': {
    public: true,
    request: z.strictObject({ outage: z.enum(['database', 'redis', 'storage', 'diskFull']) }),
    answer: z.null(),
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    deps: { logger: pino({ level: 'silent' }) },
    setup: (app) => {
      route(app, testCalls['test/outage'], ({ body }) =>
        Promise.reject(new UnavailableError(body.outage, new Error('connect ECONNREFUSED'))),
      );
      app.get('/test/outage-get', () =>
        Promise.reject(pgError('57P01', 'terminating connection due to administrator command')),
      );
      app.post('/member_data/file_manager/test-outage', () =>
        Promise.reject(systemError('ENOSPC', 'no space left on device')),
      );
    },
  });
});
afterAll(async () => {
  await t.cleanup();
});

describe('a call refused for an outage', () => {
  it('answers HTTP 200 with a retryable refusal naming what is out of reach, never a crash', async () => {
    const told: Outage[] = [];
    const listener = (outage: Outage) => told.push(outage);
    outageListeners.add(listener);
    try {
      for (const outage of ['database', 'redis', 'storage', 'diskFull'] as const) {
        const { res, json } = await t.post('/api/test/outage', { outage });
        expect(res.statusCode).toBe(200);
        expect(json.code).toBe(Code.Unavailable);
        expect(json.msg).not.toMatch(/internal server error|ECONNREFUSED/i);
        expect(outageOfEnvelope(json)).toBe(outage);
        expect(json.data).toMatchObject({ error: `unavailable.${outage}`, retryable: true });
      }
    } finally {
      outageListeners.delete(listener);
    }
    expect(told).toEqual(['database', 'redis', 'storage', 'diskFull']);
    const disk = await t.post('/api/test/outage', { outage: 'diskFull' });
    expect(disk.json.msg).toBe('磁盘已满：请告诉管理员，然后重试');
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/test/outage',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: JSON.stringify({ outage: 'diskFull' }),
    });
    expect(english.json<{ msg: string }>().msg).toMatch(/disk is full.*administrator/);
  });

  it('tells SPEC’s uploader to try the file again on an upload call', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/member_data/file_manager/test-outage',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: Code.Unavailable,
      msg: '磁盘已满：请告诉管理员，然后重试 (ShouldRetryUpload)',
      data: { params: { outage: 'diskFull' } },
    });
  });

  it('answers a GET with 503 and Retry-After', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/outage-get' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toMatchObject({ code: Code.Unavailable });
  });
});
