import { AudioOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatDuration } from '../tasks/format.ts';
import './upload.css';

const t = zhCN.upload;

/** The first container the browser can record audio into (Chrome/Firefox: webm/opus, Safari: mp4). */
function pickMime(): string | undefined {
  const Recorder = globalThis.MediaRecorder;
  if (!Recorder?.isTypeSupported) return undefined;
  return ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus'].find((m) =>
    Recorder.isTypeSupported(m),
  );
}

const extOf = (mime: string) => (mime.includes('mp4') ? 'm4a' : mime.includes('ogg') ? 'ogg' : 'webm');

/**
 * Records from the microphone in the browser (MediaRecorder); the recording becomes a File that
 * uploads like any picked file.
 */
export function Recorder({ onFile, disabled }: { onFile: (file: File) => void; disabled?: boolean }) {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const supported = typeof globalThis.MediaRecorder === 'function' && !!navigator.mediaDevices?.getUserMedia;

  useEffect(() => {
    if (!recording) return;
    const started = Date.now();
    const id = setInterval(() => setSeconds((Date.now() - started) / 1000), 500);
    return () => clearInterval(id);
  }, [recording]);
  // Leaving stops the microphone.
  useEffect(
    () => () => {
      const r = recorder.current;
      if (r && r.state !== 'inactive') {
        r.ondataavailable = null;
        r.onstop = null;
        r.stop();
        for (const track of r.stream.getTracks()) track.stop();
      }
    },
    [],
  );

  if (!supported) return <p className="vw-recorder-note">{t.recordUnsupported}</p>;

  const start = async () => {
    setError(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError(t.recordDenied);
      return;
    }
    const mime = pickMime();
    const r = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
    const chunks: Blob[] = [];
    r.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    r.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      setRecording(false);
      const type = r.mimeType || mime || 'audio/webm';
      const now = new Date();
      const stamp = `${now.getHours()}-${String(now.getMinutes()).padStart(2, '0')}-${String(now.getSeconds()).padStart(2, '0')}`;
      const file = new File(chunks, `${t.recordName(stamp)}.${extOf(type)}`, { type: type.split(';')[0] });
      if (file.size > 0) onFile(file);
    };
    recorder.current = r;
    r.start(1000);
    setSeconds(0);
    setRecording(true);
  };

  return (
    <div className="vw-recorder" data-testid="recorder">
      {recording ? (
        <>
          <span className="vw-rec-dot" aria-hidden />
          <span data-testid="recording-time">{t.recording(formatDuration(seconds))}</span>
          <Button type="primary" danger onClick={() => recorder.current?.stop()} data-testid="record-stop">
            {t.recordStop}
          </Button>
        </>
      ) : (
        <Button
          icon={<AudioOutlined />}
          onClick={() => void start()}
          disabled={disabled}
          data-testid="record-start"
        >
          {t.recordStart}
        </Button>
      )}
      {error && (
        <span className="vw-upload-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
