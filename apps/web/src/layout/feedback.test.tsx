import { act, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { FeedbackProvider } from './FeedbackProvider.tsx';

type Feedback = ReturnType<typeof useApp>;

/** Hands the context value to the test as soon as the tree has mounted. */
function Grab({ onApi }: { onApi: (api: Feedback) => void }) {
  const api = useApp();
  useEffect(() => {
    onApi(api);
  }, [api, onApi]);
  return null;
}

/** The same through antd's App.useApp(), which other pages still use. */
function GrabStatic({ onApi }: { onApi: (api: Feedback) => void }) {
  const api = App.useApp();
  useEffect(() => {
    onApi(api);
  }, [api, onApi]);
  return null;
}

function mount() {
  let api: Feedback | null = null;
  const view = render(
    <FeedbackProvider>
      <Grab onApi={(a) => (api = a)} />
    </FeedbackProvider>,
  );
  if (!api) throw new Error('no context');
  return { view, api: api as Feedback };
}

describe('FeedbackProvider (antd App context with lazily loaded holders)', () => {
  it('renders its children inside the ant-app root element', () => {
    const { view } = mount();
    expect(view.container.querySelector('.ant-app')).toBeTruthy();
  });

  it('a message sent before the holders have loaded is shown once they have', async () => {
    const { api } = mount();
    act(() => {
      api.message.success('已保存');
    });
    expect(await screen.findByText('已保存')).toBeTruthy();
  });

  it("an early message's close handle closes it, and its promise settles when it is gone", async () => {
    const { api } = mount();
    let close: (() => void) | undefined;
    let settled = false;
    act(() => {
      const handle = api.message.info({ content: '稍候', duration: 0 });
      close = handle;
      void handle.then(() => {
        settled = true;
      });
    });
    expect(await screen.findByText('稍候')).toBeTruthy();
    act(() => close?.());
    await waitFor(() => expect(screen.queryByText('稍候')).toBeNull());
    await waitFor(() => expect(settled).toBe(true));
  });

  it('messages keep their order and destroy(key) removes only that one', async () => {
    const { api } = mount();
    act(() => {
      api.message.info({ key: 'a', content: '第一条', duration: 0 });
      api.message.info({ key: 'b', content: '第二条', duration: 0 });
      api.message.destroy('a');
    });
    expect(await screen.findByText('第二条')).toBeTruthy();
    expect(screen.queryByText('第一条')).toBeNull();
  });

  it('modal.confirm before the holders have loaded opens the dialog; destroy closes it', async () => {
    const { api } = mount();
    let handle: ReturnType<Feedback['modal']['confirm']> | undefined;
    act(() => {
      handle = api.modal.confirm({ title: '确定删除？' });
    });
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('确定删除？'),
    );
    act(() => handle?.destroy());
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm-title')).toBeNull());
  });

  it('App.useApp() inside it reads the same context as the useApp hook', () => {
    let viaHook: Feedback | null = null;
    let viaStatic: Feedback | null = null;
    render(
      <FeedbackProvider>
        <Grab onApi={(a) => (viaHook = a)} />
        <GrabStatic onApi={(a) => (viaStatic = a)} />
      </FeedbackProvider>,
    );
    expect(viaHook).not.toBeNull();
    expect(viaStatic).toBe(viaHook);
  });
});
