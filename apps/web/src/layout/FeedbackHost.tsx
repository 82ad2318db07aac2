/** The lazy half of FeedbackProvider: antd's message, notification and modal hook holders. */
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect } from 'react';
import { setFeedbackApi } from './FeedbackProvider.tsx';

export default function FeedbackHost() {
  const [message, messageHolder] = useMessage();
  const [notification, notificationHolder] = useNotification();
  const [modal, modalHolder] = useModal();
  // The holders are mounted (their refs set) before this effect runs: queued calls can go through.
  useEffect(() => {
    setFeedbackApi({ message, notification, modal });
    return () => setFeedbackApi(null);
  }, [message, notification, modal]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
