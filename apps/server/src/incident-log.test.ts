import { describe, expect, it } from 'vitest';
import { IncidentLog } from './incident-log';

describe('IncidentLog', () => {
  it('warns once per incident and says once when it is over, with the count', () => {
    const lines: { level: string; fields: Record<string, unknown>; text: string }[] = [];
    const log = {
      warn: (fields: object, text: string) => {
        lines.push({ level: 'warn', fields: { ...fields }, text });
      },
      info: (fields: object, text: string) => {
        lines.push({ level: 'info', fields: { ...fields }, text });
      },
    };
    const incident = new IncidentLog(log, 'publishing a chat delta');
    incident.succeeded();
    for (let i = 0; i < 192; i += 1) incident.failed(new Error('redis down'), { messageId: i });
    incident.succeeded();
    incident.succeeded();
    incident.failed(new Error('again'));
    expect(lines.map((l) => [l.level, l.text])).toEqual([
      ['warn', 'publishing a chat delta failed'],
      ['info', 'publishing a chat delta works again'],
      ['warn', 'publishing a chat delta failed'],
    ]);
    expect(lines[0]?.fields).toMatchObject({ messageId: 0 });
    expect(lines[1]?.fields).toEqual({ failures: 192 });
  });
});
