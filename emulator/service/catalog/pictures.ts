/**
 * The product pictures of the local service: the real service links images on Amazon's image
 * host; the stand-in draws a small picture per image id itself (an identicon: a colour and a
 * symmetric 5x5 pattern, both from the ASIN and the image's number), so everything works offline.
 * Links are `https` on a host that never resolves (RFC 2606 `.invalid`); the local runtime's
 * UrlFetchApp and the playground map it to the service's `/images/` route (README, "Pictures").
 */
import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';

/** The origin of every picture link; what the local clients map to this service. */
export const PICTURE_ORIGIN = 'https://images.scan-service.invalid';
/** The service's own route that serves them (stand-in only: not part of the contract). */
export const PICTURE_ROUTE = '/images/I/';
/** Side of a picture, in pixels (a thumbnail's size on the real host). */
export const PICTURE_SIZE = 75;

const NAME = /^([A-Z0-9]{10})-(\d)\.png$/;

/** The link of the `index`-th image (0-based) of a listing. */
export function pictureLink(asin: string, index: number): string {
  return `${PICTURE_ORIGIN}/I/${asin}-${index}.png`;
}

/** The file name part of a link or route (`B000000001-0.png`), or null when it names no picture. */
export function pictureName(name: string): { asin: string; index: number } | null {
  const m = NAME.exec(name);
  return m ? { asin: m[1], index: Number(m[2]) } : null;
}

/** The SVG of a picture: same name, same drawing. */
export function pictureSvg(asin: string, index: number): string {
  const h = createHash('sha256').update(`${asin}-${index}`).digest();
  const hue = Math.round((h[0] * 360) / 256);
  const fg = `hsl(${hue},60%,42%)`;
  const bg = `hsl(${hue},45%,92%)`;
  const cell = 13;
  const pad = (PICTURE_SIZE - 5 * cell) / 2;
  const rects: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if (((h[1 + row] >> col) & 1) === 0) continue;
      for (const c of col === 2 ? [2] : [col, 4 - col])
        rects.push(`<rect x="${pad + c * cell}" y="${pad + row * cell}" width="${cell}" height="${cell}"/>`);
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_SIZE}" height="${PICTURE_SIZE}">` +
    `<rect width="100%" height="100%" fill="${bg}"/><g fill="${fg}">${rects.join('')}</g></svg>`
  );
}

const CACHE_SIZE = 2000;
const cache = new Map<string, Buffer>();

/** The PNG of a picture, from a small cache of the most recently asked (a result page asks each once). */
export function picturePng(asin: string, index: number): Buffer {
  const key = `${asin}-${index}`;
  let png = cache.get(key);
  if (png) {
    cache.delete(key);
  } else {
    png = Buffer.from(new Resvg(pictureSvg(asin, index)).render().asPng());
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, png);
  return png;
}
