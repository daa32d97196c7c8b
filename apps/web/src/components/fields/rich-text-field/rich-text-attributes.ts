/** Names, descriptions and states for the writing area (undefined ones are left off). */
export type ContentAria = Record<`aria-${string}`, string | undefined>;

/** The writing area's own attributes: a multi-line textbox with the field's id and ARIA. */
export function contentAttributes({
  id,
  aria = {},
}: {
  id?: string;
  aria?: ContentAria;
}): Record<string, string> {
  const attributes: Record<string, string> = {
    class: 'atrium-rte-content',
    role: 'textbox',
    'aria-multiline': 'true',
  };
  if (id) attributes.id = id;
  for (const [name, value] of Object.entries(aria)) if (value) attributes[name] = value;
  return attributes;
}
