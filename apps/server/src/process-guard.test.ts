import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { UnavailableError } from './http/unavailable';
import { escapedErrorHandler, isInfrastructureError } from './process-guard';

describe('errors that escaped every handler', () => {
  const run = (error: unknown) => {
    const lines: string[] = [];
    const exits: number[] = [];
    const handle = escapedErrorHandler(
      {
        warn: (_details, message) => lines.push(`warn ${message}`),
        fatal: (_details, message) => lines.push(`fatal ${message}`),
      },
      (code) => exits.push(code),
    );
    handle('uncaughtException', error);
    return { lines, exits };
  };

  it('an infrastructure error is logged and the process serves on', () => {
    const terminated = Object.assign(new pg.DatabaseError('terminating connection', 1, 'error'), {
      code: '57P01',
    });
    for (const error of [
      terminated,
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }),
      new UnavailableError('redis'),
      Object.assign(new Error('no space'), { code: 'ENOSPC' }),
    ]) {
      expect(isInfrastructureError(error), String(error)).toBe(true);
      expect(run(error)).toEqual({
        lines: ['warn infrastructure error not handled where it happened; serving on'],
        exits: [],
      });
    }
  });

  it('a bug is logged and ends the process', () => {
    for (const error of [new TypeError('x is undefined'), new Error('invariant broken'), 'text']) {
      expect(isInfrastructureError(error)).toBe(false);
      expect(run(error)).toEqual({
        lines: ['fatal unexpected error: the process ends'],
        exits: [1],
      });
    }
  });
});
