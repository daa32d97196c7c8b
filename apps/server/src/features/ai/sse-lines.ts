/**
 * A small Server-Sent Events reader for provider streams: fed decoded text in pieces of any
 * size, it calls `onEvent` once per complete event with its `data` (the lines of a multi-line
 * data joined by `\n`) and its `event` name (undefined when none was given). Lines end with LF,
 * CRLF or CR; a piece may end anywhere, even between the CR and the LF. Comments (`:`) and
 * fields other than data and event are skipped; an event without data is not dispatched, and an
 * unfinished one at the end of the stream is dropped, as the SSE specification says.
 */
export class SseLines {
  private rest = '';
  /** A piece ended with CR: an LF starting the next one belongs to that line end. */
  private afterCr = false;
  private data: string[] = [];
  private event: string | undefined;

  constructor(private readonly onEvent: (data: string, event: string | undefined) => void) {}

  feed(text: string): void {
    let from = 0;
    if (this.afterCr && text.startsWith('\n')) from = 1;
    this.afterCr = false;
    const length = text.length;
    let at = from;
    while (at < length) {
      const code = text.charCodeAt(at);
      if (code !== 10 && code !== 13) {
        at++;
        continue;
      }
      const line = this.rest ? this.rest + text.slice(from, at) : text.slice(from, at);
      this.rest = '';
      this.line(line);
      at++;
      if (code === 13) {
        if (at === length) this.afterCr = true;
        else if (text.charCodeAt(at) === 10) at++;
      }
      from = at;
    }
    if (from < length) this.rest += text.slice(from);
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        const event = this.event;
        this.data = [];
        this.event = undefined;
        this.onEvent(data, event);
      } else {
        this.event = undefined;
      }
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' a comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}
