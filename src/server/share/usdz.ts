// The USDZ a shared link serves for AR Quick Look (decision 0090): made by the owner's browser
// (three's USDZExporter needs a DOM canvas for the textures, so it cannot run here) and uploaded
// with the link. What is kept is checked first: a USDZ is a zip, stored without compression,
// whose first file is the USD layer (`.usda` or `.usdc`) Quick Look opens.
import { unzipSync } from 'fflate';
import { ERROR_CODES } from '../../contract/index.ts';
import { formatBytes } from '../../formats/index.ts';
import { ApiError } from '../../http/index.ts';

/** A USDZ's body: the generator's finest model with 2048 px textures is well under this. */
export const USDZ_MAX_BYTES = 64 * 1024 * 1024;

const LOCAL_HEADER = 0x04034b50;

const badBody = (why: string) =>
  new ApiError(400, {
    code: ERROR_CODES.invalidValue,
    message: `The body is not a USDZ: ${why}. Send the file Kiln's USDZ export makes.`,
    param: 'body',
  });

export const usdzTooLarge = () =>
  new ApiError(413, {
    code: ERROR_CODES.bodyTooLarge,
    message: `The body is larger than ${formatBytes(USDZ_MAX_BYTES)}, the limit for a USDZ.`,
    param: 'body',
  });

/**
 * Throws a 400 naming `body` unless `bytes` are a USDZ: a whole zip (its central directory
 * read), its first entry stored uncompressed and named `*.usda` or `*.usdc`.
 */
export function checkUsdz(bytes: Uint8Array): void {
  if (bytes.byteLength === 0) throw badBody('it is empty');
  if (bytes.byteLength > USDZ_MAX_BYTES) throw usdzTooLarge();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 30 || view.getUint32(0, true) !== LOCAL_HEADER)
    throw badBody('it is not a zip archive');
  const method = view.getUint16(8, true);
  const nameLength = view.getUint16(26, true);
  if (30 + nameLength > bytes.byteLength) throw badBody('the zip archive is cut short');
  const first = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  if (!/\.usd[ac]$/i.test(first))
    throw badBody(`its first file is “${first.slice(0, 80)}”, not a .usda or .usdc layer`);
  if (method !== 0) throw badBody('its files are compressed (a USDZ stores them as they are)');
  let entries = 0;
  try {
    // Reads the central directory and every entry's header; inflates nothing.
    unzipSync(bytes, {
      filter: () => {
        entries += 1;
        return false;
      },
    });
  } catch {
    throw badBody('the zip archive is damaged or cut short');
  }
  if (entries === 0) throw badBody('the zip archive holds no files');
}
