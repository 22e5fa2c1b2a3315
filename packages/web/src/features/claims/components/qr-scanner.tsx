import { useEffect, useRef, useState } from 'react';
import { Camera, CameraOff, Loader2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/**
 * Reading an entry slip's QR code with the device's camera (docs/product/screens.md#pay-prizes).
 * The frames are decoded in the page by zxing-cpp in WebAssembly (./qr-reader.ts, loaded when the
 * camera starts, served by our own server, so it works offline). The camera runs only while the
 * shop is scanning: it stops on a read, on Stop and when the screen closes.
 */

type State = { kind: 'idle' } | { kind: 'starting' } | { kind: 'scanning' } | { kind: 'failed'; message: string };

/** How often a frame is decoded, and the width it is scaled to first (a slip's QR fills much of it). */
const SCAN_EVERY_MS = 150;
const SCAN_WIDTH = 640;

export const CAMERA_DENIED =
  'The camera is not allowed for this site. Allow it in the browser’s settings, or type the entry code below.';
export const CAMERA_UNAVAILABLE = 'No camera can be used on this device. Type the entry code below.';
export const CAMERA_NEEDS_HTTPS =
  'The camera works only on a secure (https) address of this site. Type the entry code below.';
export const READER_FAILED = 'The QR code reader could not be loaded. Reload the page, or type the entry code below.';

function cameraFailure(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'InsecureContext') return CAMERA_NEEDS_HTTPS;
  if (name === 'ReaderFailed') return READER_FAILED;
  if (name === 'NotAllowedError' || name === 'SecurityError') return CAMERA_DENIED;
  return CAMERA_UNAVAILABLE;
}

/**
 * `onRead` gets each text read; answering true (an entry slip) stops the camera, false (another
 * QR code) keeps it scanning.
 */
export function QrScanner({ onRead }: { onRead: (text: string) => boolean }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const videoRef = useRef<HTMLVideoElement>(null);
  const onReadRef = useRef(onRead);
  useEffect(() => {
    onReadRef.current = onRead;
  }, [onRead]);

  const running = state.kind === 'starting' || state.kind === 'scanning';

  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The same text read again within a moment is the same slip still in front of the camera.
    let last = { text: '', at: 0 };

    const start = async () => {
      if (!window.isSecureContext) throw new DOMException('insecure', 'InsecureContext');
      if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('none', 'NotFoundError');
      const [media, readQr] = await Promise.all([
        navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }),
        import('./qr-reader.ts').then(({ loadQrReader }) => loadQrReader()).catch(() => null),
      ]);
      stream = media;
      if (!readQr) throw new DOMException('reader', 'ReaderFailed');
      const video = videoRef.current;
      if (stopped || !video) return;
      video.srcObject = media;
      await video.play();
      if (stopped) return;
      setState({ kind: 'scanning' });
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const tick = async () => {
        if (stopped || !context) return;
        if (video.videoWidth > 0) {
          const scale = Math.min(1, SCAN_WIDTH / video.videoWidth);
          canvas.width = Math.round(video.videoWidth * scale);
          canvas.height = Math.round(video.videoHeight * scale);
          context.drawImage(video, 0, 0, canvas.width, canvas.height);
          const image = context.getImageData(0, 0, canvas.width, canvas.height);
          const text = await readQr(image);
          if (stopped) return;
          const now = Date.now();
          if (text && (text !== last.text || now - last.at > 3000)) {
            last = { text, at: now };
            if (onReadRef.current(text)) {
              setState({ kind: 'idle' });
              return;
            }
          }
        }
        timer = setTimeout(() => void tick().catch(() => undefined), SCAN_EVERY_MS);
      };
      await tick();
    };

    start().catch((error: unknown) => {
      if (stopped) return;
      setState({ kind: 'failed', message: cameraFailure(error) });
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [running]);

  return (
    <div className="space-y-3" data-testid="qr-scanner">
      {running && (
        <div className="relative mx-auto aspect-square w-full max-w-sm overflow-hidden rounded-xl bg-slate-900">
          <video
            ref={videoRef}
            muted
            playsInline
            aria-label="Camera view"
            className="h-full w-full object-cover"
            data-testid="camera-view"
          />
          {/* Where to hold the slip's QR code. */}
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-[18%] rounded-lg border-4 border-white/80 shadow-[0_0_0_999px_rgba(15,23,42,0.35)]"
          />
          {state.kind === 'starting' && (
            <p role="status" className="absolute inset-x-0 bottom-3 flex items-center justify-center gap-2 text-white">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              Starting the camera…
            </p>
          )}
          {state.kind === 'scanning' && (
            <p role="status" className="absolute inset-x-0 bottom-3 text-center text-sm font-medium text-white">
              Hold the entry slip’s QR code in the frame
            </p>
          )}
        </div>
      )}
      {state.kind === 'failed' && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-800 ring-1 ring-amber-200"
        >
          <CameraOff className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {state.message}
        </p>
      )}
      {running ? (
        <Button variant="secondary" className="w-full" onClick={() => setState({ kind: 'idle' })}>
          <CameraOff className="h-4 w-4" aria-hidden="true" />
          Stop camera
        </Button>
      ) : (
        <Button className="w-full" onClick={() => setState({ kind: 'starting' })}>
          <Camera className="h-4 w-4" aria-hidden="true" />
          {state.kind === 'failed' ? 'Try the camera again' : 'Scan entry slip'}
        </Button>
      )}
    </div>
  );
}
