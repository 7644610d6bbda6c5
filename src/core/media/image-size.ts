/** An image's pixel size and format, read from its header. */
export type ImageSize = { format: 'png' | 'jpeg' | 'gif'; width: number; height: number };

function pngSize(data: Uint8Array, view: DataView): ImageSize | null {
  // Signature, then the IHDR chunk: length (4), type (4), width (4), height (4).
  if (data.length < 24 || view.getUint32(12) !== 0x49484452) return null;
  return { format: 'png', width: view.getUint32(16), height: view.getUint32(20) };
}

function gifSize(data: Uint8Array, view: DataView): ImageSize | null {
  return data.length < 10 ? null : { format: 'gif', width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

/** Start-of-frame markers (baseline, progressive, ...) carry the size; DHT (C4), JPG (C8) and DAC (CC) do not. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(data: Uint8Array, view: DataView): ImageSize | null {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1];
    if (marker === 0xff) { at += 1; continue; }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    if (isStartOfFrame(marker)) return { format: 'jpeg', height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

const startsWith = (data: Uint8Array, bytes: number[]) => bytes.every((b, i) => data[i] === b);

/** The size of a PNG, JPEG or GIF image from its header; null for anything else or a cut-off header. */
export function imageSize(data: Uint8Array): ImageSize | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let size: ImageSize | null = null;
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) size = pngSize(data, view);
  else if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) size = gifSize(data, view);
  else if (startsWith(data, [0xff, 0xd8, 0xff])) size = jpegSize(data, view);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
