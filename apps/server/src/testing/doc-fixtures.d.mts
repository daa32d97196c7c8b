/** Types of doc-fixtures.mjs, for the projects that do not read JavaScript (web's browser specs). */
export function makePdf(pages: (string | string[])[]): Buffer;
export function makeZip(files: { name: string; data: Buffer }[]): Buffer;
export function makeDocx(paragraphs: string[]): Buffer;
