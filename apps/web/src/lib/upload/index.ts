export { useUploadLeaveGuard } from './guard.ts';
export {
  fileFingerprint,
  forgetS3Upload,
  loadS3Upload,
  partTransport,
  type StoredS3Upload,
  saveS3Upload,
  xhrPutPart,
} from './s3.ts';
export {
  accepts,
  formatBytes,
  refuseFile,
  UploadDropzone,
  type UploadDropzoneProps,
  UploadLeaveGuard,
  uploadErrorText,
} from './UploadDropzone.tsx';
export {
  startUpload,
  type UploadCallbacks,
  UploadCancelled,
  type UploadPhase,
  type UploadSession,
} from './uploader.ts';
export { ACTIVE_PHASES, SpeedMeter, type UploadState, type UseUpload, useUpload } from './useUpload.ts';
