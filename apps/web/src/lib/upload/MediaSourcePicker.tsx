import { AudioOutlined, CloudUploadOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import { Segmented } from 'antd';
import { useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { Recorder } from './Recorder.tsx';
import { UploadDropzone, type UploadDropzoneProps } from './UploadDropzone.tsx';
import type { UseUpload } from './useUpload.ts';

const t = zhCN.upload;

export interface MediaSourcePickerProps
  extends Pick<UploadDropzoneProps, 'accept' | 'acceptLabel' | 'disabled' | 'maxBytes' | 'maxSeconds'> {
  /** The page's upload: a recording uploads through it like a picked file. */
  upload: UseUpload;
  /** The uploaded file or recording, as an asset. */
  onPicked: (asset: MediaAsset) => void;
  /** data-testid of the upload/record switch; the recorder's box gets `recorderTestId`. */
  testId: string;
  recorderTestId?: string;
}

/**
 * "Upload a file or record one here": a switch between the dropzone and the browser recorder. While
 * an upload runs (either way) the switch hides and the dropzone shows its progress. The page keeps the
 * leave guard (the dropzone's own is off: a router holds one blocker at a time).
 */
export function MediaSourcePicker({
  upload,
  onPicked,
  testId,
  recorderTestId,
  disabled,
  ...dropzone
}: MediaSourcePickerProps) {
  const [source, setSource] = useState<'upload' | 'record'>('upload');
  const { phase } = upload.state;
  const uploading = phase !== 'idle' && phase !== 'cancelled' && phase !== 'done';
  return (
    <>
      {!uploading && (
        <Segmented
          value={source}
          onChange={(v) => setSource(v as 'upload' | 'record')}
          options={[
            { value: 'upload', label: t.fromFile, icon: <CloudUploadOutlined /> },
            { value: 'record', label: t.fromRecording, icon: <AudioOutlined /> },
          ]}
          data-testid={testId}
        />
      )}
      {source === 'upload' || uploading ? (
        <UploadDropzone
          {...dropzone}
          upload={upload}
          leaveGuard={false}
          disabled={disabled}
          onUploaded={(a) => onPicked(a)}
        />
      ) : (
        <div data-testid={recorderTestId}>
          <Recorder
            disabled={disabled}
            onFile={(file) =>
              upload.start(file).then(
                (a) => onPicked(a),
                () => undefined,
              )
            }
          />
        </div>
      )}
    </>
  );
}
