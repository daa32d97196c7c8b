/** Query keys of AI providers; every save or delete invalidates `all`. */
export const aiKeys = {
  all: ['aigc', 'admin', 'providers'] as const,
};
