import type { StreamEvent } from '@atrium/shared/contract/chat';
import { streamEvents } from '@atrium/shared/contract/chat.answers';
import { SseParser } from './sse';

const isDeclared = (name: string): name is keyof typeof streamEvents =>
  Object.hasOwn(streamEvents, name);

/**
 * The one reader of `aigc/chat/stream` bodies: feed it decoded text as it arrives and it returns
 * the events completed so far, each parsed and checked against the call's declaration
 * (`streamEvents` in the contract). An event the contract does not name is skipped, as a newer
 * server's would be; a declared event whose data does not match throws, and the stream is then
 * read as broken (the caller re-attaches from the text it holds).
 */
export class StreamEventReader {
  private readonly parser = new SseParser();

  feed(text: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const { event, data } of this.parser.feed(text)) {
      if (!isDeclared(event)) continue;
      events.push(parseEvent(event, JSON.parse(data)));
    }
    return events;
  }
}

/** One event's data checked against its schema; throws when it does not match. */
function parseEvent(event: keyof typeof streamEvents, data: unknown): StreamEvent {
  switch (event) {
    case 'delta':
      return { event, data: streamEvents.delta.parse(data) };
    case 'done':
      return { event, data: streamEvents.done.parse(data) };
    case 'error':
      return { event, data: streamEvents.error.parse(data) };
  }
}
