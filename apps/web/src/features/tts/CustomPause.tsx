import { Button, InputNumber, Popover, Space } from 'antd';
import { useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { MAX_BREAK_MS, MIN_BREAK_MS, pauseMs } from './markup.ts';

const t = zhCN.tts;

/** The custom-length pause of the pause menu (loaded when the menu first opens: InputNumber). */
export default function CustomPause({ onInsert }: { onInsert: (ms: number) => void }) {
  const [open, setOpen] = useState(false);
  const [sec, setSec] = useState<number | null>(1.5);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      // Beside the pause menu, and above it (the menu is a z-index 1050 panel).
      placement="right"
      zIndex={1060}
      title={t.pauseCustomLabel}
      content={
        <Space.Compact>
          <InputNumber
            min={MIN_BREAK_MS / 1000}
            max={MAX_BREAK_MS / 1000}
            step={0.1}
            value={sec}
            onChange={setSec}
            addonAfter="s"
            data-testid="pause-custom-input"
            style={{ width: 130 }}
          />
          <Button
            type="primary"
            data-testid="pause-custom-insert"
            onClick={() => {
              onInsert(pauseMs(sec ?? 1));
              setOpen(false);
            }}
          >
            {t.pauseInsert}
          </Button>
        </Space.Compact>
      }
    >
      <Button size="small" type="text" data-testid="pause-custom">
        {t.pauseCustom}
      </Button>
    </Popover>
  );
}
