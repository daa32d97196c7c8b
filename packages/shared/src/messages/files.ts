import type { Texts } from './render';

/**
 * Messages of the file library and its uploads (issue 27; SPEC 4.4-4.5, 5, 7.2-7.3, 8.2): SPEC's
 * upload refusals are its Chinese word for word. A refusal after which the uploader must start
 * the file again is wrapped in 'http.shouldRetryUpload', which keeps the ASCII marker.
 */
export const files = {
  // The libraries, by the name of their root category (SPEC 2.4 "File Gallery").
  'files.libraryImage': { 'zh-CN': '图片库', en: 'Image Gallery' },
  'files.libraryFile': { 'zh-CN': '文件库', en: 'File Gallery' },
  'files.libraryVideo': { 'zh-CN': '视频库', en: 'Video Gallery' },
  'files.libraryAudio': { 'zh-CN': '音频库', en: 'Audio Gallery' },

  'files.restoreSuccess': { 'zh-CN': '恢复成功', en: 'Restore Success' },
  // ModStart's widgets send these beside the dialog (issue 31 point 4); SPEC offers none of them.
  'files.actionNotOffered': {
    'zh-CN': '文件管理不提供“{action}”操作：请先分片上传，再保存到文件库',
    en: 'The file manager does not offer "{action}": upload in chunks (init, then the chunks) and file the upload with save',
  },

  // SPEC 5 and 8.2, whichever side refuses.
  'files.typeNotAllowed': {
    'zh-CN': '文件类型不合法（只能上传{extensions}文件）',
    en: 'Illegal file type (only {extensions} files may be uploaded)',
  },
  'files.sizeNotAllowed': { 'zh-CN': '文件大小不合法', en: 'Illegal file size' },

  // The file's name.
  'files.fileName': { 'zh-CN': '文件名', en: 'File name' },
  'files.nameTooLong': {
    'zh-CN': '文件名最多 {max} 字节（UTF-8），这个文件名有 {bytes} 字节',
    en: 'The file name takes at most {max} bytes (UTF-8), this one has {bytes}',
  },
  'files.nameControlCharacters': {
    'zh-CN': '文件名不能包含控制字符（如 NUL）',
    en: 'The file name must not contain control characters such as NUL',
  },
  'files.nameNoExtension': {
    'zh-CN': '文件名需要扩展名，例如 .jpg',
    en: 'The file name needs an extension such as .jpg',
  },

  // Fields of an upload.
  'files.digitsOnly': {
    'zh-CN': '{field}必须是只用数字写的整数',
    en: '{field} must be a whole number written with digits only',
  },
  'files.md5Format': {
    'zh-CN': '{field}必须是 32 位十六进制数字',
    en: '{field} must be 32 hex digits',
  },
  'files.sizeWhole': {
    'zh-CN': '{field}必须是整数个字节',
    en: '{field} must be a whole number of bytes',
  },
  'files.emptyFile': { 'zh-CN': '不能上传空文件', en: 'An empty file cannot be uploaded' },
  'files.tooManyChunks': {
    'zh-CN': '文件太大，无法按每片 {chunkSize} 字节分片上传',
    en: 'The file is too large for chunks of {chunkSize} bytes',
  },
  'files.tooLargeToStrip': {
    'zh-CN': '超过 {max} MiB 的图片无法去除位置和设备信息，而这个库会去除这些信息',
    en: 'Images above {max} MiB cannot have their location and device metadata removed; this library removes it',
  },
  'files.chunkCountMismatch': {
    'zh-CN': '这个文件有 {expected} 个分片，而不是 {got} 个',
    en: 'This file has {expected} chunks, not {got}',
  },
  'files.chunkIndexRange': {
    'zh-CN': '分片序号应为 0 到 {last} 的整数，收到的是 {got}',
    en: 'The chunk number must be a whole number from 0 to {last}, got {got}',
  },
  'files.chunkLength': {
    'zh-CN': '分片 {index} 应恰好为 {expected} 字节，收到 {received} 字节',
    en: 'Chunk {index}: expected exactly {expected} bytes, received {received}',
  },
  'files.chunkTooLarge': {
    'zh-CN': '每个分片最多 {max} 字节',
    en: 'A chunk is at most {max} bytes',
  },
  'files.chunkOverSize': {
    'zh-CN': '分片大于分片大小',
    en: 'The chunk is larger than the chunk size',
  },

  // The multipart form of a chunk.
  'files.formMalformed': {
    'zh-CN': '上传的表单格式不正确（multipart/form-data）',
    en: 'The upload form is malformed (multipart/form-data)',
  },
  'files.formUnexpectedFile': {
    'zh-CN': '意外的文件字段 {name}：请以 "file" 字段发送分片',
    en: 'Unexpected file part {name}: send the chunk as "file"',
  },
  'files.formOneChunk': {
    'zh-CN': '每个请求只能发送一个分片',
    en: 'Send one chunk per request',
  },
  'files.formTooManyFields': { 'zh-CN': '表单字段过多', en: 'Too many form fields' },

  // Uploads in progress: the uploader sends again, or starts over (ShouldRetryUpload).
  'files.beingFinished': {
    'zh-CN': '这个文件正在完成上传，请稍后重试',
    en: 'This upload is being finished: try again in a moment',
  },
  'files.lostDatabase': {
    'zh-CN': '服务器与数据库失去了联系，请重新发送分片',
    en: 'This server lost touch with the database: send the chunk again',
  },
  'files.noUploadInProgress': {
    'zh-CN': '这个文件没有进行中的上传，请重新开始上传',
    en: 'No upload in progress for this file: start it with init',
  },
  'files.chunkBusy': {
    'zh-CN': '这个分片正由另一个请求接收，请稍后重新发送',
    en: 'This chunk is being received by another request: send it again in a moment',
  },
  'files.chunkTakenOver': {
    'zh-CN': '这个分片已被另一个请求接管，请稍后重新发送',
    en: 'This chunk was taken over by another request: send it again in a moment',
  },
  'files.chunkDamaged': {
    'zh-CN': '存储认为分片 {index} 在传输中已损坏，请重新发送',
    en: 'Chunk {index}: the storage refused its bytes as damaged on the way: send it again',
  },
  'files.uploadExpired': {
    'zh-CN': '这个上传已保存的部分已过期',
    en: 'The stored part of this upload has expired',
  },
  'files.uploadGone': {
    'zh-CN': '这个上传已保存的部分已不存在',
    en: 'The stored part of this upload is gone',
  },
  'files.md5Mismatch': {
    'zh-CN': '文件的 MD5 与开始上传时声明的不一致',
    en: "The file's MD5 does not match the one declared at init",
  },

  // The content against the extension.
  'files.contentMismatch': {
    'zh-CN': '文件内容与扩展名不符：{problem}',
    en: 'The file does not match its extension: {problem}',
  },
  'files.contentNotType': {
    'zh-CN': '内容不是 .{ext} 文件',
    en: 'the content is not a .{ext} file',
  },
  'files.contentIsOther': {
    'zh-CN': '内容是 .{found}，不是 .{ext}',
    en: 'the content is .{found}, not .{ext}',
  },
  'files.contentNotUtf8': {
    'zh-CN': '内容不是 UTF-8 文本，而 .{ext} 文件必须是',
    en: 'the content is not UTF-8 text, as a .{ext} file must be',
  },
  'files.contentNotJson': { 'zh-CN': '内容不是有效的 JSON', en: 'the content is not valid JSON' },
  'files.imageDamaged': { 'zh-CN': '图片已损坏', en: 'the image is damaged' },

  // The library (SPEC 7.3).
  'files.categoryMissing': {
    'zh-CN': '分类 {id} 不在这个库中',
    en: 'Category {id} does not exist in this library',
  },
  'files.chooseCategory': { 'zh-CN': '请选择分类', en: 'Choose a category' },
  'files.categoryTooDeep': {
    'zh-CN': '分类最多嵌套 {max} 层',
    en: 'Categories nest at most {max} levels deep',
  },
  'files.categoryUnderItself': {
    'zh-CN': '分类不能移动到它自己之下',
    en: 'A category cannot move under itself',
  },
  'files.fileMissing': {
    'zh-CN': '文件 {id} 不在这个库中',
    en: 'File {id} does not exist in this library',
  },
  'files.chooseFile': { 'zh-CN': '请选择文件', en: 'Choose a file' },
  'files.chooseFiles': { 'zh-CN': '请至少选择一个文件', en: 'Choose at least one file' },
  'files.idsFormat': {
    'zh-CN': '{field}应为以逗号分隔的 ID',
    en: '{field}: expected ids joined with commas',
  },
  'files.notUploadPath': {
    'zh-CN': '这不是已上传文件的地址',
    en: 'This is not the path of an uploaded file',
  },
  'files.pathOtherLibrary': {
    'zh-CN': '这个文件属于{library}',
    en: 'This file belongs to the {library}',
  },
  'files.noSuchUpload': {
    'zh-CN': '你没有这个地址的上传',
    en: 'You have no upload with this path',
  },
  'files.uploadPathExpired': { 'zh-CN': '这个上传已过期', en: 'This upload has expired' },
  'files.notLibraryUpload': {
    'zh-CN': '这不是这个库中上传文件的地址',
    en: 'This is not the path of an upload in this library',
  },
  'files.replaceSameType': {
    'zh-CN': '新版本必须是 .{ext} 文件，与被替换的文件相同',
    en: 'The new version must be a .{ext} file, like the one it replaces',
  },
  'files.notInTrash': { 'zh-CN': '文件 {id} 不在回收站中', en: 'File {id} is not in the trash' },
  'files.purgeWhat': {
    'zh-CN': '请选择文件，或清空整个回收站',
    en: 'Choose files, or all: true to empty the trash',
  },
  'files.fileGone': { 'zh-CN': '文件 {path} 已不存在', en: 'The file {path} no longer exists' },

  // List filters.
  'files.extensionRule': {
    'zh-CN': '{field}只能由小写字母和数字组成，例如 pdf 或 png',
    en: '{field}: expected extensions such as pdf or png (lower-case letters and digits)',
  },
  'files.typesEmpty': {
    'zh-CN': '请至少选择一种类型，或不限类型',
    en: 'Choose at least one type, or leave types out',
  },
  'files.fromAfterTo': {
    'zh-CN': '开始时间不能晚于结束时间',
    en: 'The start must not be after the end',
  },

  // A file in use (issue 17): the places, in words.
  'files.inUse': {
    'zh-CN': '文件正在使用中，只有确认后才能删除：{places}',
    en: 'In use, delete anyway only with confirm: {places}',
  },
  'files.listMore': { 'zh-CN': '{first}；{rest}', en: '{first}; {rest}' },
  'files.andMore': { 'zh-CN': '另有 {count} 处', en: 'and {count} more' },
  'files.quoted': { 'zh-CN': '“{text}”', en: '"{text}"' },
  'files.usedByRoom': { 'zh-CN': '聊天室 {name}（{use}）', en: 'room {name} ({use})' },
  'files.usedBySite': { 'zh-CN': '站点设置（{use}）', en: 'site settings ({use})' },
  'files.usedByMember': { 'zh-CN': '会员 {name}（{use}）', en: 'member {name} ({use})' },
  'files.usedByAdmin': { 'zh-CN': '管理员 {name}（{use}）', en: 'admin {name} ({use})' },
  'files.usedByConversation': {
    'zh-CN': '对话 {name}（{use}）',
    en: 'conversation {name} ({use})',
  },
  'files.useCover': { 'zh-CN': '封面', en: 'cover' },
  'files.useDescription': { 'zh-CN': '介绍', en: 'description' },
  'files.useIntroVideo': { 'zh-CN': '介绍视频', en: 'intro video' },
  'files.useIntroAudio': { 'zh-CN': '介绍音频', en: 'intro audio' },
  'files.useDownloads': { 'zh-CN': '下载', en: 'downloads' },
  'files.useLogo': { 'zh-CN': '标志', en: 'logo' },
  'files.useFavicon': { 'zh-CN': '网站图标', en: 'favicon' },
  'files.useBanners': { 'zh-CN': '横幅', en: 'banners' },
  'files.useAbout': { 'zh-CN': '关于文字', en: 'about text' },
  'files.useAvatar': { 'zh-CN': '头像', en: 'avatar' },
  'files.useImage': { 'zh-CN': '图片', en: 'image' },
  'files.useDocument': { 'zh-CN': '文档', en: 'document' },

  // The upload settings (admin).
  'files.runnableInImages': {
    'zh-CN': '{extensions} 可以在浏览器中运行脚本，不允许放入图片库；请把这类文件放入文件库',
    en: '{extensions} can run scripts in a browser and is not allowed in the image library; put such files in the file library',
  },
  'files.chunkSizeMin': {
    'zh-CN': '分片大小至少为 {min}，当前为 {got}',
    en: 'Chunk size: at least {min}; got {got}',
  },
  'files.chunkSizeMinS3': {
    'zh-CN': '使用 S3 存储时分片大小至少为 {min}（S3 的最小分段），当前为 {got}',
    en: 'Chunk size: at least {min} with S3 storage (its smallest part); got {got}',
  },
  'files.bytes': { 'zh-CN': '{count} 字节', en: '{count} bytes' },
  'files.mebibytes': { 'zh-CN': '{count} MiB', en: '{count} MiB' },

  // Fields of the file manager's calls, as validation refusals name them.
  'field.action': { 'zh-CN': '操作', en: 'Action' },
  'field.category': { 'zh-CN': '文件库', en: 'Library' },
  'field.categoryId': { 'zh-CN': '分类', en: 'Category' },
  'field.pid': { 'zh-CN': '上级分类', en: 'Parent category' },
  'field.path': { 'zh-CN': '文件地址', en: 'File path' },
  'field.size': { 'zh-CN': '文件大小', en: 'File size' },
  'field.md5': { 'zh-CN': 'MD5', en: 'MD5' },
  'field.chunk': { 'zh-CN': '分片序号', en: 'Chunk number' },
  'field.chunks': { 'zh-CN': '分片数', en: 'Chunk count' },
  'field.file': { 'zh-CN': '文件', en: 'File' },
  'field.lastModifiedDate': { 'zh-CN': '修改时间', en: 'Last modified' },
  'field.keywords': { 'zh-CN': '关键词', en: 'Keywords' },
  'field.types': { 'zh-CN': '文件类型', en: 'File types' },
  'field.sort': { 'zh-CN': '排序方式', en: 'Sort by' },
  'field.order': { 'zh-CN': '排序顺序', en: 'Order' },
  'field.from': { 'zh-CN': '开始时间', en: 'From' },
  'field.to': { 'zh-CN': '结束时间', en: 'To' },
  'field.confirm': { 'zh-CN': '确认', en: 'Confirmation' },
  'field.extensions': { 'zh-CN': '扩展名', en: 'Extensions' },
  'field.maxSize': { 'zh-CN': '最大文件大小', en: 'Maximum file size' },
  'field.chunkSize': { 'zh-CN': '分片大小', en: 'Chunk size' },
  'field.parallelChunks': { 'zh-CN': '同时上传的分片数', en: 'Parallel chunks' },
  'field.trashDays': { 'zh-CN': '回收站保留天数', en: 'Days in the trash' },
  'field.keepMetadata': { 'zh-CN': '保留元数据', en: 'Keep metadata' },
} as const satisfies Record<string, Texts>;
