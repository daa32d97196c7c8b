import type { SettingsMessages } from './zh-cn';

/** Site settings, English. */
export const settingsEn: SettingsMessages = {
  'settings.title': 'Site settings',
  'settings.subtitle':
    'The site name, logo, home banners and the content visitors see. Members see a save on their next page load.',
  'settings.section.site': 'Site',
  'settings.section.home': 'Home page',
  'settings.section.content': 'Content',
  'settings.section.advanced': 'Advanced',
  'settings.section.selector': 'File selector',
  'settings.selectorMode': 'How image, video and file fields choose',
  'settings.selectorModeHelp':
    'An external selector opens another site’s library in a dialog and sends back the chosen addresses.',
  'settings.selectorBuiltin': 'Built-in file library',
  'settings.selectorExternal': 'External selector',
  'settings.selectorServer': 'External selector address',
  'settings.selectorServerHelp':
    'The dialog opens “address/library”, e.g. https://media.example.com/selector/image.',
  'settings.selectorServerRequired':
    'Enter the external selector address to use the external selector',
  'settings.siteName': 'Site name',
  'settings.siteNamePlaceholder': 'e.g. Atrium',
  'settings.siteLanguage': 'Default language',
  'settings.siteLanguageHelp':
    'What a visitor sees who chose no language and whose browser asks for neither Chinese nor English; the server also answers requests that name no language in it.',
  'settings.siteLanguageZhCN': 'Simplified Chinese',
  'settings.siteLanguageEn': 'English',
  'settings.logo': 'Logo',
  'settings.logoHelp':
    'Shown left of the site name in the header; a square or wide image works best.',
  'settings.favicon': 'Favicon',
  'settings.faviconHelp': 'The small icon on the browser tab; a 64 × 64 PNG works well.',
  'settings.banners': 'Home banners',
  'settings.bannersHelp':
    'Shown in turn at the top of the member home page. Drag the thumbnails to reorder; at most {{max}}.',
  'settings.terms': 'Terms document',
  'settings.termsHelp': 'A file members can download and read.',
  'settings.about': 'About the site',
  'settings.aboutPlaceholder': 'Tell visitors about this site…',
  'settings.metaTags': 'Extra meta tags',
  'settings.metaTagsHelp':
    'Added to the member pages as <meta name="Name" content="Content">, e.g. description or keywords.',
  'settings.metaNameInvalid':
    'Row {{row}}: a name is letters, digits and : . _ -, starting with a letter',
  'settings.metaNameMissing': 'Row {{row}} has content but no name',
  'settings.advanced': 'Advanced settings (JSON)',
  'settings.advancedHelp': 'JSON read by extensions; it cannot be saved while it is invalid.',
  'settings.discard': 'Discard changes',
  'settings.noPermission': 'You may not change the site settings.',
  'settings.loadFailed': 'The site settings could not be loaded.',
  'settings.retry': 'Retry',
};
