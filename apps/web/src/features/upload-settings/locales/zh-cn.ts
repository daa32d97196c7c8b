/** Upload settings, Simplified Chinese. */
export const uploadSettingsZhCN = {
  'uploadSettings.title': '上传设置',
  'uploadSettings.subtitle':
    '每个文件库允许的扩展名和大小上限，以及分片大小。保存后，已打开的页面在下一次刷新配置时（30 秒内）采用新设置，无需重新加载；进行中的上传按开始时的设置完成。',
  'uploadSettings.chunk': '分片',
  'uploadSettings.chunkSize': '分片大小',
  'uploadSettings.chunkHelp': '每个上传请求携带的字节数。',
  'uploadSettings.chunkS3': '当前使用 S3 存储：分片至少 {{min}}（S3 分段的最小值）。',
  'uploadSettings.chunkMin': '分片至少 {{min}}',
  'uploadSettings.trash': '回收站',
  'uploadSettings.trashDays': '回收站保留天数',
  'uploadSettings.trashDaysHelp': '删除的文件在回收站中保留这么多天，期间可以恢复，之后永久删除。',
  'uploadSettings.days': '天',
  'uploadSettings.parallel': '同时上传的分片数',
  'uploadSettings.parallelHelp':
    '本站上传按钮同时发送的分片个数（1–8）；链路延迟高时多个分片并行可更快。WebUploader 等逐片上传的客户端不受影响。',
  'uploadSettings.library.image': '图片库',
  'uploadSettings.library.file': '文件库',
  'uploadSettings.library.video': '视频库',
  'uploadSettings.library.audio': '音频库',
  'uploadSettings.extensions': '允许的扩展名',
  'uploadSettings.extensionsPlaceholder': '输入扩展名后回车，例如 jpg',
  'uploadSettings.extensionsRequired': '至少需要一个扩展名',
  'uploadSettings.extensionInvalid': '扩展名只能是小写字母和数字：{{list}}',
  'uploadSettings.runnable':
    '{{list}} 可以在浏览器中运行脚本，图片库不允许；这类文件请放到文件库（以下载方式提供）。',
  'uploadSettings.maxSize': '单个文件上限',
  'uploadSettings.keepMetadata': '保留原始元数据',
  'uploadSettings.keepMetadataHelp':
    '关闭（默认）时，JPEG、PNG、WebP、HEIC 图片上传后去除拍摄地点、设备型号和拍摄时间等信息，保留方向、色彩配置文件和版权；开启后按原样保存。',
  'uploadSettings.mib': 'MiB',
  'uploadSettings.reset': '恢复默认值',
  'uploadSettings.resetHint': '表单已恢复为默认值，保存后生效。',
  'uploadSettings.noPermission': '你没有修改设置的权限。',
};

export type UploadSettingsKey = keyof typeof uploadSettingsZhCN;
export type UploadSettingsMessages = Record<UploadSettingsKey, string>;
