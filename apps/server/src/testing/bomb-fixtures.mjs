// @ts-check
// Decompression bombs for tests (issue 26, point 7): a DOCX and a PDF of a few hundred KB whose
// compressed parts inflate to `megabytes` of repeated text, as the red team's did. Built in a
// blink without ever holding the inflated text: one megabyte is deflated once and its blocks
// are repeated (each block refers only to itself, so the copies are a valid stream), and the
// checksums are combined arithmetically.
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { makeZip } from './doc-fixtures.mjs';

const MB = 1024 * 1024;

/**
 * `count` copies of `piece`, raw-deflated, as one stream ending with a final empty block.
 * @param {Buffer} piece
 * @param {number} count
 */
function repeatedDeflate(piece, count) {
  const block = deflateRawSync(piece, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array.from({ length: count }, () => block), last]);
}

/**
 * A megabyte of `unit` repeated.
 * @param {string} unit
 */
function megabyteOf(unit) {
  const times = Math.floor(MB / Buffer.byteLength(unit));
  return Buffer.from(unit.repeat(times));
}

/**
 * The Adler-32 of `count` copies of `piece` (zlib's adler32_combine, applied `count` times).
 * @param {Buffer} piece
 * @param {number} count
 */
function repeatedAdler32(piece, count) {
  const BASE = 65521;
  let a = 1;
  let b = 0;
  for (const byte of piece) {
    a = (a + byte) % BASE;
    b = (b + a) % BASE;
  }
  const one = { a, b };
  let sum = { a: 1, b: 0 };
  const rem = piece.length % BASE;
  for (let i = 0; i < count; i++) {
    sum = {
      a: (sum.a + one.a - 1 + BASE) % BASE,
      b: (((rem * sum.a) % BASE) + sum.b + one.b - rem + BASE * 2) % BASE,
    };
  }
  return ((sum.b << 16) | sum.a) >>> 0;
}

/**
 * A DOCX whose word/document.xml inflates to about `megabytes` MB of paragraphs.
 * @param {number} megabytes
 * @returns {Buffer}
 */
export function makeDocxBomb(megabytes) {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
  );
  const tail = Buffer.from('</w:body></w:document>');
  const piece = megabyteOf('<w:p><w:r><w:t>All work and no play makes a bomb. </w:t></w:r></w:p>');
  const deflated = Buffer.concat([
    deflateRawSync(head, { finishFlush: constants.Z_FULL_FLUSH }),
    repeatedDeflate(piece, megabytes).subarray(0, -2),
    deflateRawSync(tail),
  ]);
  let crc = crc32(head);
  for (let i = 0; i < megabytes; i++) crc = crc32(piece, crc);
  crc = crc32(tail, crc);
  const size = head.length + piece.length * megabytes + tail.length;
  const docx = makeZip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    { name: 'word/document.xml', data: deflated },
  ]);
  return deflatedEntry(docx, 'word/document.xml', crc, size);
}

/**
 * Marks a zip entry (stored by makeZip) as deflated with its real CRC and inflated size.
 * @param {Buffer} zip
 * @param {string} name
 * @param {number} crc
 * @param {number} size
 */
function deflatedEntry(zip, name, crc, size) {
  const nameBytes = Buffer.from(name);
  for (const signature of [0x04034b50, 0x02014b50]) {
    const central = signature === 0x02014b50;
    for (let at = zip.indexOf(nameBytes); at >= 0; at = zip.indexOf(nameBytes, at + 1)) {
      const start = at - (central ? 46 : 30);
      if (start < 0 || zip.readUInt32LE(start) !== signature) continue;
      const base = central ? start + 2 : start;
      zip.writeUInt16LE(8, base + 8);
      zip.writeUInt32LE(crc, base + 14);
      zip.writeUInt32LE(size, base + 22);
    }
  }
  return zip;
}

/**
 * A one-page PDF whose content stream (FlateDecode) inflates to about `megabytes` MB of text
 * operators.
 * @param {number} megabytes
 * @returns {Buffer}
 */
export function makePdfBomb(megabytes) {
  const piece = megabyteOf('BT /F1 10 Tf 40 780 Td (All work and no play makes a bomb.) Tj ET\n');
  const stream = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    repeatedDeflate(piece, megabytes),
    Buffer.alloc(4),
  ]);
  stream.writeUInt32BE(repeatedAdler32(piece, megabytes), stream.length - 4);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [4 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  let size = parts[0]?.length ?? 0;
  /** @type {number[]} */
  const offsets = [];
  objects.forEach((object, i) => {
    offsets.push(size);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      object,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    size += part.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}
