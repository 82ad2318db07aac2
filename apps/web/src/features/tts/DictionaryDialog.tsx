import { DeleteOutlined } from '@ant-design/icons';
import type { DictionaryEntry } from '@vw/contract';
import { Button, Empty, Modal } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { toneMarks } from './polyphone.ts';

const t = zhCN.tts;

/** The pronunciation dictionary dialog (loaded when first opened). */
export default function DictionaryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [items, setItems] = useState<DictionaryEntry[] | null>(null);
  const load = useCallback(() => {
    request(api.listDictionary)
      .then((d) => setItems(d.items))
      .catch(() => setItems([]));
  }, []);
  useEffect(() => {
    if (open) load();
  }, [open, load]);
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t.dictionary} width={480} destroyOnHidden>
      {items && items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.dictionaryEmpty} />
      ) : (
        <ul className="vw-dict-list" data-testid="dictionary-list">
          {(items ?? []).map((e) => (
            <li key={e.word}>
              <strong>{e.word}</strong>
              <span className="vw-dict-pinyin">{toneMarks(e.pinyin)}</span>
              <Button
                type="text"
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t.dictionaryRemove}
                onClick={async () => {
                  await request(api.deleteDictionary, { body: { word: e.word } });
                  load();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
