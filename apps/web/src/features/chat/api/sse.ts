/** One Server-Sent Event. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental text/event-stream parser: feed it decoded text as it arrives and it returns the
 * events completed so far. Comments (keep-alive pings) are skipped; several data lines join
 * with "\n"; CRLF and CR line ends are accepted, as the format allows.
 */
export class SseParser {
  private buffer = '';

  feed(text: string): SseMessage[] {
    this.buffer += text;
    const events: SseMessage[] = [];
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
      if (!match) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = parseBlock(block);
      if (event) events.push(event);
    }
    return events;
  }
}

function parseBlock(block: string): SseMessage | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return id === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), id };
}
