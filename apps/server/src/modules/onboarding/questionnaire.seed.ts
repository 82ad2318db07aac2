import type { Question } from '@vw/contract';

/** Where the web app serves the option icons (apps/web/public/survey). */
const icon = (name: string) => `/workbench/survey/${name}.svg`;

/**
 * The questionnaire a fresh install starts with (migration 006). Operators replace it with
 * `npm run admin -- questionnaire set FILE`; option ids are unique across the whole questionnaire.
 */
export const DEFAULT_QUESTIONNAIRE: Question[] = [
  {
    id: 1,
    question_content: '您的身份是？',
    select_type: 1,
    question_options: [
      { id: 101, content: '自媒体创作者', icon: icon('creator') },
      { id: 102, content: '短视频与影视后期从业者', icon: icon('film') },
      { id: 103, content: '教育培训', icon: icon('education') },
      { id: 104, content: '企业市场与营销', icon: icon('business') },
      { id: 105, content: '开发者', icon: icon('developer') },
      { id: 106, content: '其他', icon: icon('other') },
    ],
  },
  {
    id: 2,
    question_content: '您主要想用声音工作台做什么？',
    select_type: 2,
    question_options: [
      { id: 201, content: '文字转语音配音' },
      { id: 202, content: '视频翻译' },
      { id: 203, content: '声音克隆' },
      { id: 204, content: '有声书制作' },
      { id: 205, content: '字幕识别与擦除' },
      { id: 206, content: '其他' },
    ],
  },
  {
    id: 3,
    question_content: '您是从哪里了解到我们的？',
    select_type: 1,
    question_options: [
      { id: 301, content: '搜索引擎' },
      { id: 302, content: '小红书' },
      { id: 303, content: '哔哩哔哩' },
      { id: 304, content: '微信或朋友推荐' },
      { id: 305, content: '其他' },
    ],
  },
];
