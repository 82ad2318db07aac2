import { createRequire } from 'node:module';

/**
 * OpenCV (@techstark/opencv-js, the WebAssembly build the OCR engine uses), ready to call: its
 * classes exist only once the runtime has started, about a second after the first load, and a call
 * before then fails ("cv.Mat is not a constructor").
 */
export interface OpenCv {
  Mat: unknown;
  onRuntimeInitialized?: () => void;
}

/** Boxed: the module object is itself a thenable that resolves to itself, so a promise of it never settles. */
let loading: Promise<{ cv: unknown }> | undefined;

export function openCv<Cv extends OpenCv>(): Promise<{ cv: Cv }> {
  loading ??= (async () => {
    const cv = createRequire(import.meta.url)('@techstark/opencv-js') as OpenCv;
    if (typeof cv.Mat !== 'function') {
      await new Promise<void>((resolve) => {
        cv.onRuntimeInitialized = resolve;
      });
    }
    return { cv };
  })();
  return loading as Promise<{ cv: Cv }>;
}
