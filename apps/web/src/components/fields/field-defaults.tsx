import { createContext, useContext, type ReactNode } from 'react';
import { defaultFileManagerUrl } from '@/components/file-library/file-picker/file-picker';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { useConfigStore } from '@/stores/config-store';

/** How picker fields reach the file library; a form sets it once instead of on every field. */
export interface FieldDefaults {
  /** Base address of the file library (SPEC 3.5). */
  url: string;
  /**
   * Open the external selector instead of the built-in picker (SPEC 2.4); unset, the site
   * setting decides.
   */
  external?: boolean;
  uploadConfig?: UploadConfig;
}

const FieldDefaultsContext = createContext<FieldDefaults>({ url: defaultFileManagerUrl });

export function FieldDefaultsProvider({
  children,
  ...value
}: Partial<FieldDefaults> & { children: ReactNode }) {
  const parent = useContext(FieldDefaultsContext);
  const given = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return (
    <FieldDefaultsContext.Provider value={{ ...parent, ...given }}>
      {children}
    </FieldDefaultsContext.Provider>
  );
}

/** The provider's defaults, with what a field was given directly taking precedence. */
export function useFieldDefaults(own: {
  url?: string;
  external?: boolean;
}): FieldDefaults & { external: boolean } {
  const defaults = useContext(FieldDefaultsContext);
  const site = useConfigStore((s) => s.config.selectorMode === 'external');
  return {
    ...defaults,
    url: own.url ?? defaults.url,
    external: own.external ?? defaults.external ?? site,
  };
}
