import SparkMD5 from 'spark-md5';

export function md5(text: string): string {
  return SparkMD5.hash(text);
}

/**
 * Cache key of a speech-synthesis item (spec §3): MD5 of
 * `text_md5_voice_id_model_id_speed` with speed fixed to 2 decimals.
 */
export function ttsCacheKey(item: {
  text_md5: string;
  voice_id: string;
  model_id: string;
  speed: number;
}): string {
  return md5([item.text_md5, item.voice_id, item.model_id, item.speed.toFixed(2)].join('_'));
}
