/**
 * A request header's text (user agent, client address) as a database column can keep it. Node's
 * HTTP parser refuses control characters in headers, but not every way in goes through it, and
 * PostgreSQL refuses U+0000 in text where SQLite takes it. So control characters are dropped,
 * an unpaired surrogate becomes U+FFFD (what a UTF-8 driver would store anyway), and the text is
 * cut to `max` without splitting a surrogate pair.
 */
export function headerText(value: string | undefined, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const text = (value ?? '').replace(/[\u0000-\u001f\u007f]/g, '').replace(/\p{Cs}/gu, '\ufffd');
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
