import { describe, expect, it } from 'vitest';
import { isImageDataPath, parseDataPath, thumbnailOf, thumbnailSource } from './data-paths';

const random = '/data/image/0123456789abcdef01234567/海边 日落.png'.replace(' ', '-');
const sha = `ab${'c'.repeat(62)}`;
const content = `/data/image/ab/${sha}.png`;

describe('public addresses of stored files', () => {
  it('reads a random address and a content address', () => {
    expect(parseDataPath(random)).toEqual({ library: 'image', ext: 'png' });
    expect(parseDataPath(content)).toEqual({ library: 'image', ext: 'png', sha256: sha });
    expect(parseDataPath('/data/file/0123456789abcdef01234567/a.b.tar.gz')).toEqual({
      library: 'file',
      ext: 'gz',
    });
  });

  it('refuses anything else', () => {
    for (const path of [
      '/data/image/0123456789abcdef0123456/a.png', // 23 hex
      '/data/image/0123456789ABCDEF01234567/a.png',
      '/data/image/0123456789abcdef01234567/a b.png',
      '/data/image/0123456789abcdef01234567/../a.png',
      '/data/image/0123456789abcdef01234567/a',
      `/data/image/cd/${sha}.png`, // prefix is not the hash's
      '/data/thumb/image/0123456789abcdef01234567/a.png',
      '/data/secret/0123456789abcdef01234567/a.png',
      'https://example.com/data/image/0123456789abcdef01234567/a.png',
    ]) {
      expect(parseDataPath(path), path).toBeUndefined();
    }
  });

  it('knows stored images', () => {
    expect(isImageDataPath(random)).toBe(true);
    expect(isImageDataPath(content)).toBe(true);
    expect(isImageDataPath('/data/image/0123456789abcdef01234567/a.pdf')).toBe(false);
    expect(isImageDataPath('/data/file/0123456789abcdef01234567/a.png')).toBe(false);
  });

  it('thumbnails: a random address adds .webp and maps back; a content address swaps its extension', () => {
    const thumb = thumbnailOf(random);
    expect(thumb).toBe(`${random.replace('/data/', '/data/thumb/')}.webp`);
    expect(thumbnailSource(thumb)).toBe(random);
    expect(thumbnailOf(content)).toBe(`/data/thumb/image/ab/${sha}.webp`);
    expect(thumbnailSource(thumbnailOf(content))).toBeUndefined();
    expect(thumbnailSource('/data/thumb/image/0123456789abcdef01234567/a.webp')).toBeUndefined();
  });
});
