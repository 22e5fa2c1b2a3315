import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * The QR code reader of the Pay prizes scanner (docs/product/screens.md#pay-prizes): zxing-cpp in
 * WebAssembly. Its .wasm is bundled by the build and served by our own server, never fetched from a
 * CDN (the package's default); compiling it needs 'wasm-unsafe-eval' in the CSP
 * (docs/product/runtime-and-security.md#headers). Imported only when the camera
 * starts, so it stays out of the first screen's JavaScript.
 */
export async function loadQrReader(): Promise<(image: ImageData) => Promise<string | null>> {
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  // A frame that cannot be read is a frame without a code: the scanner goes on to the next.
  return async (image) => {
    try {
      const [code] = await readBarcodes(image, { formats: ['QRCode'], maxNumberOfSymbols: 1 });
      return code?.isValid && code.text ? code.text : null;
    } catch {
      return null;
    }
  };
}
