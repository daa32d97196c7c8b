import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import 'dayjs/locale/zh-cn';
import { Limits } from '@atrium/shared/limits';

dayjs.extend(relativeTime);

export type TimeValue = string | number | Date;

/** "3 分钟前": relative times are always Simplified Chinese (SPEC 1). */
export function relativeTimeText(value: TimeValue, now: TimeValue = Date.now()): string {
  return dayjs(value).locale('zh-cn').from(dayjs(now));
}

export interface RelativeTimeProps {
  value: TimeValue;
  /** Re-render every 60 s so "刚刚" becomes "1 分钟前" without a reload (default on). */
  autoUpdate?: boolean;
}

export function RelativeTime({ value, autoUpdate = true }: RelativeTimeProps) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!autoUpdate) return undefined;
    const timer = setInterval(() => setNow(Date.now()), Limits.relativeTimeRefreshMs);
    return () => clearInterval(timer);
  }, [autoUpdate]);
  const date = dayjs(value);
  return (
    <time dateTime={date.toISOString()} title={date.format('YYYY-MM-DD HH:mm:ss')}>
      {relativeTimeText(value, now)}
    </time>
  );
}
