// @ts-check
// The thread that reads documents' text for `Extractor` (extractor.ts). Plain JavaScript, checked
// by the compiler (checkJs) and lint, so it runs unchanged from the sources (tests, tsx) and next
// to the bundle (dist). Parsing a large PDF takes seconds of CPU: here it never holds up the
// event loop that serves requests and streams answers. So is splitting the text into passages
// and indexing them: the instance only stores what comes back. Everything here is bounded
// (reading-limits.mjs): what a file inflates to, its pages, its text and its passages.
import { parentPort } from 'node:worker_threads';
import { indexText, splitPassages } from './passages.mjs';
import {
  MAX_PAGES,
  MAX_PASSAGES,
  MAX_TEXT_CHARS,
  tooManyPages,
  tooMuchText,
} from './reading-limits.mjs';
import { boundedDocx, checkPdfStreams, Unreadable } from './unpacking.mjs';

const port = parentPort;
if (!port) throw new Error('extract.worker.mjs runs as a worker thread');

/**
 * @typedef {object} Request
 * @property {number} id
 * @property {string} ext
 * @property {Uint8Array} bytes
 * @property {number} [pageMs] A pause after each page (tests' reading pace; 0 on a site).
 *
 * @typedef {(done: number, total: number) => void | Promise<void>} Progress
 *
 * @typedef {object} ReadPassage
 * @property {number} page
 * @property {string} text
 * @property {string} terms
 */

/**
 * Text files: UTF-8 (its byte-order mark dropped), else GB18030, the usual other encoding of
 * Chinese text; bytes that are neither, or NULs, are not text.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
function decodeText(bytes) {
  // Three bytes make at least one character: this many bytes are too much text, undecoded.
  if (bytes.length > 3 * MAX_TEXT_CHARS) throw new Unreadable(tooMuchText);
  if (bytes.includes(0)) throw new Unreadable({ key: 'docs.notText' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    try {
      return new TextDecoder('gb18030', { fatal: true }).decode(bytes);
    } catch {
      throw new Unreadable({ key: 'docs.unknownEncoding' });
    }
  }
}

/**
 * @param {Uint8Array} bytes
 * @param {Progress} progress
 * @returns {Promise<string[]>}
 */
async function readPdf(bytes, progress) {
  checkPdfStreams(bytes);
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc;
  try {
    doc = await getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException')
      throw new Unreadable({ key: 'docs.passwordProtected' });
    throw new Unreadable(
      { key: 'docs.invalidPdf' },
      error instanceof Error ? error.message : String(error),
    );
  }
  try {
    if (doc.numPages > MAX_PAGES) throw new Unreadable(tooManyPages);
    /** @type {string[]} */
    const pages = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      // Read as it is decoded, a hundred items at a time: a page of endless text stops at the
      // bound instead of being held whole first.
      const reader = page.streamTextContent().getReader();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const item of value.items) {
          if (!('str' in item)) continue;
          text += item.str;
          if (item.hasEOL) text += '\n';
          else if (item.str !== '' && !/\s$/.test(item.str)) text += ' ';
        }
        if (chars + text.length > MAX_TEXT_CHARS) {
          await reader.cancel();
          throw new Unreadable(tooMuchText);
        }
      }
      chars += text.length;
      pages.push(text);
      page.cleanup();
      await progress(n, doc.numPages);
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
async function readDocx(bytes) {
  const mammoth = (await import('mammoth')).default;
  const parts = boundedDocx(bytes);
  try {
    const result = await mammoth.extractRawText({ buffer: parts });
    return result.value;
  } catch (error) {
    throw new Unreadable(
      { key: 'docs.invalidWord' },
      error instanceof Error ? error.message : String(error),
    );
  }
}

/**
 * Each row as "column: value" pairs under the header row, so a passage of rows still says what
 * each value is.
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
async function readCsv(bytes) {
  const Papa = (await import('papaparse')).default;
  const parsed = Papa.parse(decodeText(bytes).replace(/^\uFEFF/, ''), { skipEmptyLines: true });
  /** @type {string[][]} */
  const rows = /** @type {string[][]} */ (parsed.data);
  if (rows.length === 0) return '';
  const [header = [], ...body] = rows;
  if (body.length === 0) return header.join(', ');
  return body
    .map((row) =>
      row
        .map((value, i) => (header[i] ? `${header[i]}: ${value}` : value))
        .filter((cell) => cell.trim() !== '')
        .join('; '),
    )
    .join('\n');
}

/**
 * The document's text, one string a page (formats without pages: one string).
 * @param {string} ext
 * @param {Uint8Array} bytes
 * @param {Progress} progress
 * @returns {Promise<{ pages: string[]; paged: boolean }>}
 */
async function extract(ext, bytes, progress) {
  switch (ext) {
    case 'pdf':
      return { pages: await readPdf(bytes, progress), paged: true };
    case 'docx':
      return { pages: [await readDocx(bytes)], paged: false };
    case 'csv':
      return { pages: [await readCsv(bytes)], paged: false };
    case 'txt':
    case 'md':
      return { pages: [decodeText(bytes).replace(/^\uFEFF/, '')], paged: false };
    default:
      throw new Unreadable({ key: 'docs.extNotRead', params: { ext } });
  }
}

/**
 * The document's text in passages, each with its indexed terms, within the bounds.
 * @param {string} ext
 * @param {Uint8Array} bytes
 * @param {Progress} progress
 * @returns {Promise<{ passages: ReadPassage[]; pages: number; paged: boolean }>}
 */
async function read(ext, bytes, progress) {
  const { pages, paged } = await extract(ext, bytes, progress);
  if (pages.reduce((sum, page) => sum + page.length, 0) > MAX_TEXT_CHARS)
    throw new Unreadable(tooMuchText);
  /** @type {ReadPassage[]} */
  const passages = [];
  for (const [i, text] of pages.entries()) {
    for (const passage of splitPassages(text, paged ? i + 1 : 0)) {
      if (passages.length >= MAX_PASSAGES) throw new Unreadable(tooMuchText);
      passages.push({ ...passage, terms: indexText(passage.text) });
    }
  }
  return { passages, pages: paged ? pages.length : 0, paged };
}

// One document at a time, in order: the extractor sends the next when this one is answered.
port.on('message', (/** @type {Request} */ request) => {
  const { id, ext, bytes, pageMs = 0 } = request;
  /** @type {Progress} */
  const progress = (done, total) => {
    port.postMessage({ id, done, total });
    if (pageMs > 0) return new Promise((resolve) => setTimeout(resolve, pageMs));
  };
  read(ext, bytes, progress)
    .then(({ passages, pages, paged }) => port.postMessage({ id, passages, pages, paged }))
    .catch((/** @type {unknown} */ error) => {
      // The reason as a catalogue message; the detail goes to the instance's log.
      const reason = error instanceof Unreadable ? error.reason : { key: 'docs.unparsable' };
      const detail =
        error instanceof Unreadable
          ? error.detail
          : error instanceof Error
            ? error.message
            : String(error);
      port.postMessage({ id, error: reason, detail });
    });
});
