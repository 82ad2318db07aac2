/** 字幕提取 and 字幕擦除 / 去水印, and the media picker, region editor and estimate the video tools share. */
export const subtitleTools = {
  ocrDesc: '识别视频画面中的内嵌字幕（离线 PP-OCRv4），生成可编辑的字幕轨，可导出 SRT/VTT/TXT',
  eraseDesc: '擦除视频画面中的字幕或水印，擦除后自动检查残留并可二次擦除，输出 MP4（保留原音轨）',
  pickVideo: '选择视频',
  detecting: '正在检测字幕位置…',
  ocr: {
    regions: '字幕区域',
    detected: (n: number, label: string) =>
      n > 0
        ? `检测到 ${n} 个字幕区域（${label}），可拖动调整或新增区域（双语、顶部标题）`
        : '没有检测到字幕区域，请在画面上框选字幕所在位置',
    fps: '采样频率',
    fpsN: (n: number) => `每秒 ${n} 帧`,
    convert: '繁简转换',
    converts: { none: '不转换', t2s: '繁体转简体', s2t: '简体转繁体' },
    start: '开始识别',
    started: '已开始识别',
    openEditor: '打开编辑器',
    another: '再识别一个',
  },
  erase: {
    modes: { erase: '字幕擦除', watermark: '去水印' },
    regions: { erase: '擦除区域', watermark: '水印位置' },
    watermarkHint:
      '在画面上框选水印（角标、台标）所在位置，可以框得宽一些；水印会换位置时把每处都框上，会按时段分别找出并处理',
    detected: (n: number) =>
      n > 0 ? `已框出检测到的 ${n} 个字幕区域，可调整` : '没有检测到字幕，请在画面上框选要擦除的区域',
    rangeMode: '擦除时段',
    rangeModes: { subtitles: '仅出现字幕时', whole: '整段视频', custom: '自定义时段' },
    recognizeAgain: '擦除时重新识别字幕时间',
    fromOcrProject: (name: string) => `使用字幕提取项目「${name}」的时间`,
    method: '擦除方法',
    methods: {
      fill: '逐帧补全（推荐）：只擦文字笔画，取前后画面补全',
      fast: '快速方法：按周边像素填充整个区域',
      blur: '快速方法：模糊整个区域',
    },
    watermarkFill: '逐帧补全（推荐）：找出水印，还原或取前后画面补全',
    secondPass: '擦除后检查并二次擦除残留',
    seconds: '秒',
    to: '至',
    removeRange: '删除时段',
    addRange: '添加时段',
    rangesInvalid: '请添加时段，结束时间需晚于开始时间且不超过视频时长',
    preview: '预览擦除效果（当前画面）',
    before: '擦除前',
    after: '擦除后',
    start: { erase: '开始擦除', watermark: '开始去水印' },
    started: '已开始处理',
    back: '返回',
  },
  result: {
    original: '原视频',
    erased: '擦除后',
    comparePosition: '对比位置',
    views: { compare: '前后对比', difference: '差异' },
    differenceMoment: '差异图的时间',
    differenceAlt: '原视频与成品在这一帧的差异',
    differenceOutside: (time: string, pct: string) => `${time}：擦除区域外有明显变化的像素 ${pct}%`,
    differenceInside: (pct: string) => `，区域内 ${pct}%`,
    differenceHint: '黑色表示与原视频相同，越亮改动越大；黄框为这一刻擦除的区域',
    differenceLoading: '正在生成差异图…',
    differenceFailed: '差异图生成失败，请稍后重试',
    residualChars: '残留文字',
    chars: '个字',
    residualShare: (original: number, share: string) => `（原有 ${original} 个，残留 ${share}%）`,
    darkResidue: '深色残影',
    places: '处',
    secondPass: '二次擦除',
    secondPassDone: '已执行',
    secondPassSkipped: '未执行',
    methodEngine: '方法 · 检查引擎',
    methods: { fill: '逐帧补全', fast: '快速方法（delogo）', blur: '快速方法（模糊）' },
    /** What the temporal fill took from other frames, and what inpainted the rest (older results: unnamed). */
    fillShare: (pct: string, inpaint?: 'lama' | 'telea') =>
      inpaint === 'lama'
        ? `逐帧补全：${pct}% 取自前后画面，其余由 LaMa 神经修复`
        : inpaint === 'telea'
          ? `逐帧补全：${pct}% 取自前后画面，其余由传统修补（Telea）`
          : pct === '100'
            ? `逐帧补全：${pct}% 取自前后画面`
            : `逐帧补全：${pct}% 取自前后画面，其余为画面修补`,
    /** 去水印: the share of the logo's pixels restored by undoing its transparency (the rest, if any, filled). */
    unblendShare: (pct: string) =>
      pct === '100'
        ? '逐帧补全：水印按估计的透明度还原出原画面'
        : `逐帧补全：${pct}% 的水印像素按估计的透明度还原出原画面，其余按周围或前后画面补全`,
    watermarks: '找到的水印',
    watermarkAt: (place: string, from: string, to: string) => `${place} ${from} – ${to}`,
    /** Where a found watermark sits: column (left/centre/right) × row (top/middle/bottom). */
    positions: {
      lt: '左上角',
      ct: '顶部',
      rt: '右上角',
      lm: '左侧',
      cm: '画面中间',
      rm: '右侧',
      lb: '左下角',
      cb: '底部',
      rb: '右下角',
    } as Record<string, string>,
    damage: '文字以外的改动',
    damageShare: (pct: string) => `擦除区域及周边最多 ${pct}% 的像素有明显变化`,
    /** 去水印: the whole box is erased, so only what changed around it is damage. */
    damageWatermark: '水印以外的改动',
    damageRing: (pct: string) => `水印区域周边最多 ${pct}% 的像素有明显变化`,
    time: '时间',
    residualText: '仍可识别的文字',
    clean: '检查通过：擦除区域内已识别不到文字',
    darkWarning: (n: number) =>
      `有 ${n} 处擦除区域明显比周围暗或亮（残影），可改用“模糊”方法或缩小区域后重试`,
    darkAt: (time: string, delta: string) => `${time} 亮度差 ${delta}`,
    loading: '正在载入结果…',
    download: '下载视频',
    queued: '已加入下载中心',
    noResidue: '无残留文字',
    residue: (n: number) => `残留 ${n} 字`,
  },
  region: {
    frame: '视频画面',
    loadingFrame: '正在取画面…',
    noFrame: '选择视频后显示画面',
    kinds: { title: '标题', subtitle: '字幕', custom: '区域' },
    hint: '在画面上拖动可新增区域；拖动区域可移动，拖动四角可调整大小。',
    chip: (n: number) => `区域 ${n}：`,
    remove: (n: number) => `删除区域 ${n}`,
  },
  media: {
    nouns: { video: '视频', audio: '音频', media: '音视频' },
    processing: ' · 处理中…',
    change: (noun: string) => `更换${noun}`,
    upload: (noun: string) => `上传${noun}`,
    library: '我的素材',
    libraryEmpty: (noun: string) => `还没有${noun}素材，请先上传`,
    libraryPick: (noun: string) => `选择一个${noun}`,
  },
  estimate: {
    label: '预计消耗',
    credits: (c: string) => `${c} 积分`,
    balance: (c: string) => `当前余额 ${c}`,
    insufficient: '积分不足，请先充值或升级套餐',
    estimating: '计算中…',
  },
};
