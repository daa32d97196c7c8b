/** The image's structure is broken where its metadata would be found: the upload is refused. */
export class MalformedImage extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedImage';
  }
}
