import useApp from 'antd/es/app/useApp';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUploadGuardStore } from '@/stores/upload.ts';

const t = zhCN.upload;

/**
 * The upload leave guard of spec §4: while `active` (a file is uploading), leaving the page asks
 * first — a route change through react-router's blocker, closing or reloading the tab through
 * beforeunload. After a credit shortage with credit_type 3 the credit flow marks the upload as
 * leavable (`useUploadGuardStore.leaveAllowed`) and leaving no longer asks.
 */
export function useUploadLeaveGuard(active: boolean): void {
  const leaveAllowed = useUploadGuardStore((s) => s.leaveAllowed);
  const guard = active && !leaveAllowed;
  const { modal } = useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => guard && currentLocation.pathname !== nextLocation.pathname,
  );

  const blockerState = blocker.state;
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blockerState !== 'blocked') return;
    const dialog = modal.confirm({
      title: t.leaveTitle,
      content: t.leaveBody,
      okText: t.leaveOk,
      cancelText: t.leaveCancel,
      okButtonProps: { danger: true, 'data-testid': 'upload-leave-ok' } as never,
      cancelButtonProps: { 'data-testid': 'upload-leave-stay' } as never,
      onOk: () => blockerRef.current.proceed?.(),
      onCancel: () => blockerRef.current.reset?.(),
    });
    return () => dialog.destroy();
  }, [blockerState, modal]);

  // Nothing left to guard (upload finished, or leavable now): let a pending navigation through.
  useEffect(() => {
    if (!guard && blockerState === 'blocked') blockerRef.current.proceed?.();
  }, [guard, blockerState]);

  useEffect(() => {
    if (!guard) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [guard]);
}
