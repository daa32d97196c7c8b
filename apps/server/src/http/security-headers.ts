import helmet, { type HelmetOptions } from 'helmet';

/**
 * The response headers helmet sets for `options`, worked out once at start-up. None of our
 * options depend on the request (no CSP nonces), and helmet itself renders every header again on
 * each request, the Content-Security-Policy among them.
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers = new Map<string, string>();
  const response = {
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let finished = false;
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return Object.fromEntries(headers);
}
