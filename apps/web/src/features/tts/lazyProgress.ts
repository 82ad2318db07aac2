import { lazy } from 'react';

/** antd's Progress, loaded the first time a running task shows one (it is off the first paint of /tts). */
export const Progress = lazy(() => import('antd/es/progress'));
