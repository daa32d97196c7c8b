import type pg from 'pg';
import type { Db } from './index';

/** How a PostgreSQL pool stands, for readiness and metrics (SQLite has no pool: undefined). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new WeakMap<Db, pg.Pool>();

export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

export function poolStats(db: Db): PoolStats | undefined {
  const pool = pools.get(db);
  return pool
    ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
    : undefined;
}
