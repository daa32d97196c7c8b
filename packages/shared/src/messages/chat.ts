import type { Texts } from './render';

/**
 * Messages of the chat rooms (issue 27): conversations, answers, their limits and budgets, and
 * export, import and share links. An answer's error is stored as one of these keys with its
 * parameters and rendered in the reader's language when it is read.
 */
export const chat = {
  // A conversation's title until its first question names it (stored empty).
  'chat.newConversation': { 'zh-CN': '新对话', en: 'New chat' },

  'chat.conversationNotFound': { 'zh-CN': '对话不存在', en: 'Conversation not found' },
  'chat.messageNotFound': { 'zh-CN': '消息不存在', en: 'Message not found' },
  'chat.roomClosed': { 'zh-CN': '该聊天室已关闭', en: 'This room is closed' },
  'chat.noModel': {
    'zh-CN': '该聊天室还没有配置 AI 模型，暂时无法回答。请联系管理员配置。',
    en: 'This room has no AI model set up yet, so it cannot answer. Please ask an administrator to configure one.',
  },
  'chat.noVision': {
    'zh-CN': '该聊天室的模型无法识别图片：请只发送文字',
    en: "This room's model cannot read images: send text only",
  },
  'chat.imageNotOwned': {
    'zh-CN': '请从你自己的图片库中选择图片',
    en: 'Choose images from your own file library',
  },
  'chat.busy': {
    'zh-CN': '回答还在生成中：请等待它结束，或先停止它',
    en: 'An answer is still being written: wait for it or stop it first',
  },
  'chat.notLastAnswer': {
    'zh-CN': '只能重新生成当前分支的最新回答',
    en: 'Only the latest answer can be regenerated',
  },
  'chat.notAnswer': { 'zh-CN': '只能重新生成回答', en: 'Only answers can be regenerated' },
  'chat.notQuestion': {
    'zh-CN': '只能编辑你自己提的问题',
    en: 'Only your own questions can be edited',
  },
  'chat.stillStreaming': {
    'zh-CN': '这条回答还在生成中：请先停止它',
    en: 'This answer is still being written: stop it first',
  },

  // Why an answer ended early: stored with the answer, read later in the reader's language.
  'chat.answerInterrupted': {
    'zh-CN': '服务器重启，回答已中断；已写出的内容会保留。',
    en: 'The answer was interrupted (the server restarted). What was written is kept.',
  },
  'chat.answerLostTouch': {
    'zh-CN': '写这条回答的服务器与数据库失联了一段时间，回答已中断；已写出的内容会保留。',
    en: 'The answer was interrupted: the server writing it lost touch with the database for a while. What was written is kept.',
  },
  'chat.answerShutdown': {
    'zh-CN': '服务器关闭，回答已中断；已写出的内容会保留。',
    en: 'The answer was interrupted because the server shut down. What was written is kept.',
  },
  'chat.answerLength': {
    'zh-CN': '回答达到长度上限，已截断；已写出的内容会保留。',
    en: 'The answer reached its length limit and was cut off. What was written is kept.',
  },
  'chat.answerIdle': {
    'zh-CN': '模型 {seconds} 秒没有继续回答，回答已截断，请重试。',
    en: 'The model stopped answering for {seconds} seconds, so the answer was cut off. Try again.',
  },
  'chat.answerNoStart': {
    'zh-CN': '模型在 {seconds} 秒内没有开始回答，请稍后再试。',
    en: 'The model did not start answering within {seconds} seconds. Try again later.',
  },
  'chat.answerExportedStreaming': {
    'zh-CN': '导出时仍在生成',
    en: 'Exported while still being written',
  },
  'chat.answerFailed': { 'zh-CN': '回答失败', en: 'The answer failed' },
  'chat.streamFailed': {
    'zh-CN': '回答的推送中断了：请刷新页面查看回答',
    en: 'The answer stream failed: reload to see the answer',
  },
  'chat.streamLost': {
    'zh-CN': '与正在生成的回答失去了联系：请刷新页面查看',
    en: 'Lost the live answer: reload to see it',
  },

  // Limits and budgets (issue 18): the message limit, then a budget used up or too low.
  'chat.quotaMessages': {
    'zh-CN': '今天的 {limit} 次提问已用完，UTC 0 点重置。',
    en: "You have reached today's limit of {limit} messages. It resets at 00:00 UTC.",
  },
  'chat.budgetUsed': {
    'zh-CN': '{whose}{period}的{amount} 已用完，{resets}重置。',
    en: '{whose} used {period} {amount}. The limit resets at {resets}.',
  },
  'chat.budgetTooLittle': {
    'zh-CN': '{whose}{period}的{amount}，只剩 {left}，不够这条消息使用，{resets}重置。',
    en: '{whose} {period} {amount} has {left} left, too little for this message. The limit resets at {resets}.',
  },
  'chat.budgetYouHave': { 'zh-CN': '你', en: 'You have' },
  'chat.budgetRoomHas': { 'zh-CN': '本聊天室', en: 'This room has' },
  'chat.budgetYour': { 'zh-CN': '你', en: 'Your' },
  'chat.budgetRooms': { 'zh-CN': '本聊天室', en: "This room's" },
  'chat.budgetTodays': { 'zh-CN': '今日', en: "today's" },
  'chat.budgetMonths': { 'zh-CN': '本月', en: "this month's" },
  'chat.budgetDaily': { 'zh-CN': '每日', en: 'daily' },
  'chat.budgetMonthly': { 'zh-CN': '每月', en: 'monthly' },
  'chat.budgetTokens': { 'zh-CN': '{n} tokens', en: '{n} tokens' },
  'chat.budgetLimitTokens': { 'zh-CN': '额度 {n} tokens', en: 'limit of {n} tokens' },
  'chat.budgetCost': { 'zh-CN': '费用预算 {n}', en: 'budget of {n}' },
  'chat.budgetResetsDay': { 'zh-CN': 'UTC 0 点', en: '00:00 UTC' },
  'chat.budgetResetsMonth': {
    'zh-CN': '下月 1 日 UTC 0 点',
    en: 'the start of next month (00:00 UTC)',
  },

  // Usage report (admin).
  'chat.notADay': { 'zh-CN': '{field}不是有效的日期', en: '{field} is not a date' },
  'chat.toBeforeFrom': {
    'zh-CN': '结束日期不能早于开始日期',
    en: 'The end date must not be before the start date',
  },
  'chat.tooManyDays': {
    'zh-CN': '一次最多查询 {max} 天',
    en: 'At most {max} days at once',
  },

  // Export, import and share links (issue 18, points 4 and 5).
  'chat.importedConversations': {
    'zh-CN': '已导入 {count} 个对话',
    en: 'Imported {count} conversation(s)',
  },
  'chat.importRunning': {
    'zh-CN': '已有一个导入正在进行，请等它结束后再试',
    en: 'An import is already running, try again when it ends',
  },
  'chat.exportRunning': {
    'zh-CN': '已有一个导出正在进行，请等它结束后再试',
    en: 'An export is already running, try again when it ends',
  },
  'chat.importNotJson': {
    'zh-CN': '文件不是 JSON 文件（{reason}）',
    en: 'The file is not a JSON file ({reason})',
  },
  'chat.importNotExport': {
    'zh-CN': '文件不是 Atrium 的对话导出文件（其 "format" 应为 "{format}"）',
    en: 'The file is not an Atrium chat export (its "format" must be "{format}")',
  },
  'chat.importWrongVersion': {
    'zh-CN': '无法导入版本为 {version} 的导出文件：本站只能读取版本 {expected}',
    en: 'Export version {version} cannot be imported here: this Atrium reads version {expected}',
  },
  'chat.importInvalid': {
    'zh-CN': '文件内容有误（{where}）：{reason}',
    en: '{where}: {reason}',
  },
  'chat.importEmpty': { 'zh-CN': '文件是空的', en: 'The file is empty' },
  'chat.importTooBig': {
    'zh-CN': '文件太大：最多 10 MB',
    en: 'The file is too big: at most 10 MB',
  },
  'chat.importNotArray': { 'zh-CN': '应为列表', en: 'expected an array' },
  'chat.importNoConversation': {
    'zh-CN': '文件中没有任何对话',
    en: 'the file holds no conversation',
  },
  'chat.importTooManyConversations': {
    'zh-CN': '最多 {max} 个对话',
    en: 'at most {max} conversations',
  },
  'chat.importTooManyMessages': {
    'zh-CN': '一次最多导入 {max} 条消息',
    en: 'At most {max} messages in one import',
  },
  'chat.importRoomClosed': {
    'zh-CN': '该聊天室已关闭或不存在',
    en: 'This room is closed or does not exist',
  },
  'chat.importRoomsMissing': {
    'zh-CN': '聊天室 {rooms} 在本站已关闭或不存在：请选择一个聊天室导入',
    en: 'Room {rooms} is closed or does not exist on this site: choose a room to import into',
  },
  'chat.exportIdTwice': { 'zh-CN': '{field}重复出现', en: '{field} is used twice' },
  'chat.exportParentMissing': {
    'zh-CN': '{field}指向的消息不在它之前',
    en: '{field} names a message which is not listed before it',
  },
  'chat.exportLeafMissing': {
    'zh-CN': '{field}指向的消息不在这个对话中',
    en: '{field} names a message which the conversation does not hold',
  },
  'chat.exportVersionOther': {
    'zh-CN': '这个文件由其他版本的 Atrium 写出',
    en: 'this file was written by another version of Atrium',
  },
  'chat.searchTooManyWords': {
    'zh-CN': '{field}最多 8 个词',
    en: '{field} takes at most 8 words',
  },
  'chat.shareNotFound': {
    'zh-CN': '这个分享链接不存在或已被撤销',
    en: 'This share link does not exist or was revoked',
  },
  'chat.publicLinksOff': {
    'zh-CN': '本站已关闭公开链接',
    en: 'Public links are turned off on this site',
  },
  'chat.tooManyShares': {
    'zh-CN': '你已有 {max} 个分享链接：请先撤销一些',
    en: 'You have {max} share links: revoke some first',
  },
  'chat.downloadAddress': {
    'zh-CN': '{field}必须是以“/”开头的路径或 http(s) 地址',
    en: '{field} must be a path starting with "/" or an http(s) address',
  },

  // Fields of the chat calls, as validation refusals name them.
  'field.roomId': { 'zh-CN': '聊天室', en: 'Room' },
  'field.conversationId': { 'zh-CN': '对话', en: 'Conversation' },
  'field.messageId': { 'zh-CN': '消息', en: 'Message' },
  'field.content': { 'zh-CN': '消息内容', en: 'Message' },
  'field.question': { 'zh-CN': '问题', en: 'Question' },
  'field.images': { 'zh-CN': '图片', en: 'Images' },
  'field.offset': { 'zh-CN': '位置', en: 'Offset' },
  'field.before': { 'zh-CN': '起始位置', en: 'Cursor' },
  'field.limit': { 'zh-CN': '条数', en: 'Limit' },
  'field.format': { 'zh-CN': '格式', en: 'Format' },
  'field.public': { 'zh-CN': '公开', en: 'Public' },
  'field.token': { 'zh-CN': '链接', en: 'Link' },
  'field.memberId': { 'zh-CN': '会员', en: 'Member' },
  'field.messagesPerDay': { 'zh-CN': '每日消息数', en: 'Messages per day' },
  'field.messagesPerMinute': { 'zh-CN': '每分钟消息数', en: 'Messages per minute' },
  'field.tokensPerDay': { 'zh-CN': '每日 tokens', en: 'Tokens per day' },
  'field.tokensPerMonth': { 'zh-CN': '每月 tokens', en: 'Tokens per month' },
  'field.costPerDay': { 'zh-CN': '每日费用', en: 'Cost per day' },
  'field.costPerMonth': { 'zh-CN': '每月费用', en: 'Cost per month' },

  // AI providers and models (admin).
  'ai.providerNotFound': { 'zh-CN': '服务商不存在', en: 'Provider not found' },
  'ai.modelNotFound': { 'zh-CN': '模型不存在', en: 'Model not found' },
  'ai.keyUnreadable': {
    'zh-CN': '无法解密该服务商的 API 密钥（ATRIUM_SECRET 是否改过？）：请重新填写密钥',
    en: "The provider's API key cannot be decrypted (was ATRIUM_SECRET changed?): enter the key again",
  },
  'ai.keyForOtherAddress': {
    'zh-CN': '接口地址已改：请为新地址重新填写密钥，或删除密钥',
    en: 'Enter the key again for the new base URL, or remove it',
  },
  'ai.modelsNotListed': {
    'zh-CN': '服务商没有列出它的模型：{reason}',
    en: 'The provider did not list its models: {reason}',
  },
  'ai.connectionFailed': { 'zh-CN': '连接失败：{reason}', en: 'Connection failed: {reason}' },
  'ai.providerTimeout': {
    'zh-CN': '模型服务商没有及时响应，请重试。',
    en: 'The model provider did not answer in time. Please try again.',
  },
  'ai.providerUnreachable': {
    'zh-CN': '无法连接模型服务商（{cause}）。',
    en: 'Could not reach the model provider ({cause}).',
  },
  'ai.providerRefused': {
    'zh-CN': '模型服务商拒绝了请求（HTTP {status}）：{detail}',
    en: 'The model provider refused the request (HTTP {status}): {detail}',
  },
  'ai.providerError': {
    'zh-CN': '模型服务商报告了错误：{detail}',
    en: 'The model provider reported an error: {detail}',
  },
  'ai.providerBrokeOff': {
    'zh-CN': '与模型服务商的连接在回答中途断开（{reason}）。',
    en: 'The connection to the model provider broke off mid-answer ({reason}).',
  },
  'ai.callFailed': { 'zh-CN': '模型调用失败：{reason}', en: 'The model call failed: {reason}' },

  // Rooms (admin and members).
  'rooms.notFound': { 'zh-CN': '聊天室不存在', en: 'Room not found' },
  'rooms.modelNotFound': {
    'zh-CN': '所选模型不存在',
    en: 'No such model',
  },

  // A conversation's documents (issue 18).
  'docs.notFound': { 'zh-CN': '文档不存在', en: 'Document not found' },
  'docs.cannotRead': {
    'zh-CN': '无法读取这个文件：{reason}',
    en: 'This file cannot be read: {reason}',
  },
  'docs.tooLargeUnpacked': { 'zh-CN': '解压后过大', en: 'it is too large when unpacked' },
  'docs.tooMuchText': {
    'zh-CN': '文字超过 {max} 个字符',
    en: 'it holds more than {max} characters of text',
  },
  'docs.tooManyPages': { 'zh-CN': '超过 {max} 页', en: 'it has more than {max} pages' },
  'docs.notText': { 'zh-CN': '不是文本文件', en: 'it is not a text file' },
  'docs.unknownEncoding': {
    'zh-CN': '文字编码既不是 UTF-8 也不是 GB18030',
    en: 'its text is neither UTF-8 nor GB18030',
  },
  'docs.passwordProtected': { 'zh-CN': '文件受密码保护', en: 'it is protected by a password' },
  'docs.invalidPdf': { 'zh-CN': '不是有效的 PDF 文件', en: 'it is not a valid PDF' },
  'docs.invalidWord': { 'zh-CN': '不是有效的 Word 文档', en: 'it is not a valid Word document' },
  'docs.extNotRead': { 'zh-CN': '不读取 .{ext} 文件', en: '.{ext} files are not read' },
  'docs.unparsable': { 'zh-CN': '内容无法解析', en: 'its contents could not be parsed' },
  'docs.tookTooLong': {
    'zh-CN': '读取超过了 {seconds} 秒',
    en: 'reading it took longer than {seconds} seconds',
  },
  'docs.stoppedTooOften': {
    'zh-CN': '读取在完成前中断了 {times} 次',
    en: 'reading it stopped {times} times before the end',
  },
  'docs.gone': { 'zh-CN': '文件已不在存储中', en: 'the file is no longer stored' },
  'docs.tooLarge': { 'zh-CN': '文件超过 {mb} MB', en: 'it is larger than {mb} MB' },
  'docs.noTextScanned': {
    'zh-CN': '没有可读的文字（扫描的 PDF 只含图片）',
    en: 'it has no text to read (a scanned PDF holds only images)',
  },
  'docs.noText': { 'zh-CN': '没有可读的文字', en: 'it holds no text' },
  'docs.notOwned': {
    'zh-CN': '{path} 不是你自己文件库中的文件',
    en: '{path} is not a file of your own library',
  },
  'docs.unsupported': {
    'zh-CN': '{name} 不能用作文档：请选择 {types} 文件',
    en: '{name} cannot be used as a document: choose a {types} file',
  },
  'docs.tooMany': {
    'zh-CN': '一个对话最多 {max} 个文档：请先移除一个',
    en: 'A conversation holds at most {max} documents: remove one first',
  },

  // Fields of the AI and room calls.
  'field.baseUrl': { 'zh-CN': '接口地址', en: 'Base URL' },
  'field.apiKey': { 'zh-CN': 'API 密钥', en: 'API key' },
  'field.providerId': { 'zh-CN': '服务商', en: 'Provider' },
  'field.modelId': { 'zh-CN': '模型', en: 'Model' },
  'field.model': { 'zh-CN': '模型', en: 'Model' },
  'field.contextLength': { 'zh-CN': '上下文长度', en: 'Context length' },
  'field.promptPrice': { 'zh-CN': '输入价格', en: 'Prompt price' },
  'field.completionPrice': { 'zh-CN': '输出价格', en: 'Completion price' },
  'field.vision': { 'zh-CN': '识图', en: 'Vision' },
  'field.systemPrompt': { 'zh-CN': '系统提示词', en: 'System prompt' },
  'field.params': { 'zh-CN': '生成参数', en: 'Generation parameters' },
  'field.prompts': { 'zh-CN': '推荐提问', en: 'Suggested prompts' },
  'field.value': { 'zh-CN': '内容', en: 'Value' },
  'field.introVideo': { 'zh-CN': '介绍视频', en: 'Intro video' },
  'field.introAudio': { 'zh-CN': '介绍音频', en: 'Intro audio' },
  'field.downloads': { 'zh-CN': '下载文件', en: 'Downloads' },
  'field.budget': { 'zh-CN': '预算', en: 'Budget' },
  'field.temperature': { 'zh-CN': '温度', en: 'Temperature' },
  'field.top_p': { 'zh-CN': 'top_p', en: 'top_p' },
  'field.max_tokens': { 'zh-CN': '最大 tokens', en: 'Max tokens' },
  'field.presence_penalty': { 'zh-CN': '存在惩罚', en: 'Presence penalty' },
  'field.frequency_penalty': { 'zh-CN': '频率惩罚', en: 'Frequency penalty' },
  'field.seed': { 'zh-CN': '随机种子', en: 'Seed' },
  'field.stop': { 'zh-CN': '停止词', en: 'Stop sequences' },
  'field.paths': { 'zh-CN': '文件', en: 'Files' },
  'field.cover': { 'zh-CN': '封面', en: 'Cover' },
  'field.description': { 'zh-CN': '介绍', en: 'Description' },
  'field.enabled': { 'zh-CN': '启用', en: 'Enabled' },
} as const satisfies Record<string, Texts>;
