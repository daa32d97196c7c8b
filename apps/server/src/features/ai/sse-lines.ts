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
    if (this.rest === '' && this.data.length === 0 && this.event === undefined && !this.afterCr) {
      // Nothing pending, and the piece starts with whole events of one `data: ` line each,
      // ended by LF (a provider's usual token): their data is cut from the piece as it is.
      const whole = this.wholeEvents(text);
      if (whole > 0) text = text.slice(whole);
    }
    let from = 0;
    if (this.afterCr && text.startsWith('\n')) from = 1;
    this.afterCr = false;
    const length = text.length;
    // Line ends found by the engine's own search (a token's piece is ~200 characters, and a
    // thousand answers feed 20,000 of them a second); most providers end lines with LF only.
    let lf = text.indexOf('\n', from);
    let cr = text.indexOf('\r', from);
    while (lf >= 0 || cr >= 0) {
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      const line = this.rest ? this.rest + text.slice(from, end) : text.slice(from, end);
      this.rest = '';
      this.line(line);
      let at = end + 1;
      if (end === cr) {
        if (at === length) this.afterCr = true;
        else if (text.charCodeAt(at) === 10) at++;
      }
      from = at;
      if (lf >= 0 && lf < from) lf = text.indexOf('\n', from);
      if (cr >= 0 && cr < from) cr = text.indexOf('\r', from);
    }
    if (from < length) this.rest += text.slice(from);
  }

  /**
   * Dispatches the events of one `data: ` line each, LF-ended, that `text` starts with (none if
   * it holds a CR anywhere); answers where the first other line begins.
   */
  private wholeEvents(text: string): number {
    if (text.indexOf('\r') >= 0) return 0;
    let from = 0;
    while (text.startsWith('data: ', from)) {
      const end = text.indexOf('\n', from);
      if (end < 0 || text.charCodeAt(end + 1) !== 10) break;
      this.onEvent(text.slice(from + 6, end), undefined);
      from = end + 2;
    }
    return from;
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
