// @ts-check
// Real small documents written from scratch for tests, browser specs and benchmarks (issue 18):
// a PDF with one text line per page and a DOCX zipped from its XML parts, so no fixture is a
// binary nobody can explain. Plain JavaScript, so the .mjs benchmarks import it as it is.
import { storedZip } from '../features/chat-docs/unpacking.mjs';

/**
 * Escapes text for a PDF literal string (Latin-1 only: the Helvetica of these PDFs).
 * @param {string} text
 */
const pdfString = (text) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A PDF 1.4 of one page per entry, each page's lines of text set in Helvetica.
 * @param {(string | string[])[]} pages
 * @returns {Buffer}
 */
export function makePdf(pages) {
  /** @type {string[]} */
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  /** @type {number[]} */
  const kids = [];
  for (const page of pages) {
    const lines = Array.isArray(page) ? page : [page];
    const body = lines
      .map((line, i) => `BT /F1 10 Tf 40 ${780 - i * 12} Td (${pdfString(line)}) Tj ET`)
      .join('\n');
    objects.push(`<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`);
    const contents = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`,
    );
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n';
  /** @type {number[]} */
  const offsets = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip archive of these files, stored without compression (what a DOCX is). */
export const makeZip = storedZip;

/** @param {string} text */
const xmlText = (text) =>
  text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);

/**
 * A Word document of these paragraphs: the three parts a DOCX needs, zipped.
 * @param {string[]} paragraphs
 * @returns {Buffer}
 */
export function makeDocx(paragraphs) {
  const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlText(p)}</w:t></w:r></w:p>`)
    .join('')}</w:body></w:document>`;
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ]);
}
