/**
 * dayjs in zh-CN (antd's date pickers format with the global locale). Pages that show dates import
 * dayjs from here, so neither dayjs nor its locale is in the entry chunk.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

export type { Dayjs } from 'dayjs';
export default dayjs;
