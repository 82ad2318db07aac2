import { DeleteOutlined } from '@ant-design/icons';
import { Button, Empty, Modal } from 'antd';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { toneMarks } from './polyphone.ts';

const t = zhCN.tts;

/** The pronunciation dictionary dialog (loaded when first opened). */
export default function DictionaryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Loaded each time the dialog opens (entries are added from the editor meanwhile).
  const list = useCall(api.listDictionary, undefined, { enabled: open, staleTime: 0, retry: false });
  const items = list.isError ? [] : (list.data?.items ?? null);
  const remove = useCallMutation(api.deleteDictionary, { invalidates: [api.listDictionary] });
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
                onClick={() => remove.mutate({ body: { word: e.word } })}
              />
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
